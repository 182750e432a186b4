//! The help, completions, manual page and usage errors of the command line, which must not
//! change when clap builds a subcommand's arguments only on entering it (`Deferred` in
//! src/cli/deferred.rs).

use assert_cmd::Command;

/// Stdout, stderr and exit code of `twilight ARGS`.
fn twilight(args: &[&str]) -> (String, String, i32) {
    let o = Command::cargo_bin("twilight")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// The `(name, description)` pairs of the `Commands:` list of a help text (a description
/// wrapped onto further, deeper indented lines joined again).
fn listed(help: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for l in help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
    {
        match (l.strip_prefix("  "), out.last_mut()) {
            (Some(rest), Some((_, about))) if rest.starts_with(' ') => {
                about.push(' ');
                about.push_str(rest.trim_start());
            }
            _ => {
                let l = l.trim_start();
                let (name, about) = l.split_once(' ').unwrap_or((l, ""));
                out.push((name.to_string(), about.trim_start().to_string()));
            }
        }
    }
    out
}

/// Each subcommand's own help begins with the description the list of its parent shows: the
/// variant's docstring, not the docstring of the struct holding its arguments (nor of a
/// struct flattened into it, such as the mail options).
#[test]
fn every_subcommand_help_begins_with_its_listed_description() {
    let mut checked = 0;
    for parent in [vec![], vec!["peer"], vec!["import"]] {
        let mut args = parent.clone();
        args.push("--help");
        let (out, _, code) = twilight(&args);
        assert_eq!(code, 0, "{args:?}");
        let subs = listed(&out);
        assert!(subs.len() > 1, "{args:?}: {out}");
        for (name, about) in subs {
            if name == "help" {
                continue;
            }
            let mut args = parent.clone();
            args.extend([name.as_str(), "-h"]);
            let (out, err, code) = twilight(&args);
            assert_eq!(code, 0, "{args:?}: {err}");
            // The first paragraph, its lines joined (a test build may wrap help text).
            let first: Vec<&str> = out.lines().take_while(|l| !l.is_empty()).collect();
            assert_eq!(first.join(" "), about, "{args:?}");
            let usage = format!("Usage: twilight {}", args[..args.len() - 1].join(" "));
            assert!(out.contains(&usage), "{args:?}: {out}");
            checked += 1;
        }
    }
    // 23 commands, 6 of `peer`, 1 of `import`.
    assert_eq!(checked, 30);
}

/// A subcommand's help shows its arguments, its flattened options and their defaults.
#[test]
fn subcommand_help_shows_every_argument() {
    let (out, _, _) = twilight(&["new", "--help"]);
    for a in [
        "<GAME_DIR>",
        "--us <US>",
        "--player <EMAIL>",
        "--promos <PACK>...",
        "--days-per-move <N>",
        "[default: 48,12]",
        "--no-mail",
        "--peer",
    ] {
        assert!(out.contains(a), "new --help lacks {a}: {out}");
    }
    let (out, _, _) = twilight(&["peer", "inbox", "-h"]);
    assert!(
        out.contains(
            "Usage: twilight peer inbox [OPTIONS] <GAME_DIR> <SOURCES>...\n\n\
             Arguments:\n  <GAME_DIR>    Your game folder\n  <SOURCES>...  Maildir folders or .eml files\n"
        ),
        "{out}"
    );
    let (out, _, _) = twilight(&["help", "selfplay"]);
    assert!(out.contains("--policy <POLICY>"), "{out}");
    assert!(out.contains("[default: uniform]"), "{out}");
}

/// Usage errors: the same messages and exit code 2 as when clap built every argument at once.
#[test]
fn usage_errors_name_the_subcommand_and_its_arguments() {
    let (out, err, code) = twilight(&["inbox", "--bogus"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert_eq!(
        err,
        "error: unexpected argument '--bogus' found\n\n  \
         tip: to pass '--bogus' as a value, use '-- --bogus'\n\n\
         Usage: twilight inbox [OPTIONS] [SOURCES]...\n\n\
         For more information, try '--help'.\n"
    );
    let (_, err, code) = twilight(&["new", "G", "--player", "a"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: the following required arguments were not provided:\n  --bid\n  --us <US>\n  \
         --ussr <USSR>\n\nUsage: twilight new --bid --player <EMAIL> --us <US> --ussr <USSR> \
         <GAME_DIR>\n\nFor more information, try '--help'.\n"
    );
    let (_, err, code) = twilight(&["peer", "inbox"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: the following required arguments were not provided:\n  <GAME_DIR>\n  \
         <SOURCES>...\n\nUsage: twilight peer inbox <GAME_DIR> <SOURCES>...\n\n\
         For more information, try '--help'.\n"
    );
    let (_, err, code) = twilight(&["status", "--version"]);
    assert_eq!((err.as_str(), code), ("", 0));
}

/// The completion scripts hold the nested subcommands under `help` too (`twilight help peer
/// inbox`), which clap copies from the tree before it builds the subcommands.
#[test]
fn completions_cover_the_nested_help_commands() {
    let (out, _, code) = twilight(&["completions", "zsh"]);
    assert_eq!(code, 0);
    for c in [
        "'twilight help peer inbox commands'",
        "'twilight help import digital-edition commands'",
        "--days-per-move=[Time control\\: each decision",
    ] {
        assert!(out.contains(c), "zsh completions lack {c}");
    }
}

/// Shell completions and a manual page that cover every command.
#[test]
fn completions_and_the_man_page_cover_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let o = Command::cargo_bin("twilight")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(o.status.success(), "{shell}");
        let s = String::from_utf8_lossy(&o.stdout);
        for c in ["inbox", "verify", "moves", "completions"] {
            assert!(s.contains(c), "{shell} completion lacks {c}");
        }
    }
    let o = Command::cargo_bin("twilight")
        .unwrap()
        .arg("man")
        .output()
        .unwrap();
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains(".TH twilight 1"), "{s}");
    for c in ["inbox", "verify", "selfplay"] {
        assert!(s.contains(c), "the man page lacks {c}");
    }
}

/// The rows of the README table headed `| head |…`: each row's cells, the markdown `\|`
/// read back as `|`.
fn readme_rows(head: &str) -> Vec<Vec<String>> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut rows = Vec::new();
    let mut on = false;
    for l in readme.lines() {
        if l.starts_with(&format!("| {head} |")) {
            on = true;
            continue;
        }
        if on && l.starts_with("|---") {
            continue;
        }
        if on && l.starts_with('|') {
            let cells: Vec<String> = l
                .replace("\\|", "\u{1}")
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('\u{1}', "|"))
                .collect();
            rows.push(cells);
        } else if on {
            break;
        }
    }
    assert!(!rows.is_empty(), "no README table headed `{head}`");
    rows
}

/// The `--flags` of a README cell.
fn flags(cell: &str) -> Vec<String> {
    cell.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_string)
        .collect()
}

/// The help of option `flag` in a `--help` text: its line and the lines under it, up to the
/// next option, on one line.
fn option_help(help: &str, flag: &str) -> String {
    let mut out = String::new();
    let mut on = false;
    for l in help.lines() {
        let t = l.trim_start();
        // An option's line is indented less than its help and its possible values (`- loses`).
        if t.starts_with('-') && l.len() - t.len() < 8 {
            on = t.split([' ', ',', '=']).any(|w| w == flag);
        }
        if on {
            out.push_str(t);
            out.push(' ');
        }
    }
    assert!(!out.is_empty(), "no option {flag} in:\n{help}");
    out
}

/// The README's tables, the help and the manual page say the same: every command of the
/// commands table exists and its help names every flag the row names; every flag of the time
/// control table is in `new --help` with the README's default; the manual page (generated
/// from the same command tree as the help) carries each command's description as its help
/// does — `remind` and `play` described as they behave now.
#[test]
fn the_readme_tables_the_help_and_the_man_page_agree() {
    let mut checked = 0;
    for row in readme_rows("command") {
        for use_ in row[0].split(", ") {
            // The command's words (`import digital-edition`), up to its first placeholder.
            let cmd: Vec<&str> = use_
                .trim_matches('`')
                .split(' ')
                .take_while(|w| {
                    !w.is_empty()
                        && !w.starts_with('-')
                        && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                })
                .collect();
            let mut args = cmd.clone();
            args.push("--help");
            let (help, _, code) = twilight(&args);
            assert_eq!(code, 0, "README names `{cmd:?}`, which has no help");
            for f in flags(use_) {
                assert!(
                    help.contains(&f),
                    "README: `{use_}`; `{cmd:?} --help` has no {f}:\n{help}"
                );
                checked += 1;
            }
        }
    }
    let (new_help, _, _) = twilight(&["new", "--help"]);
    for row in readme_rows("flag of `new`") {
        // The flags the row is about, not those in brackets (`[--increment-hours H]`).
        let cell = row[0].split('[').next().unwrap();
        for f in flags(cell) {
            let says = option_help(&new_help, &f);
            let default = row[2].trim_matches('`');
            if default == "none" || default == "UTC" {
                assert!(
                    !says.contains("[default:"),
                    "{f}: README says {default}: {says}"
                );
            } else {
                assert!(
                    says.contains(&format!("[default: {default}]")),
                    "{f}: README says {default}: {says}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 15, "{checked}");
    let (man, _, _) = twilight(&["man"]);
    let man_text = man.replace("\\-", "-").replace("\\(em", "—");
    let man_one = man_text.split_whitespace().collect::<Vec<_>>().join(" ");
    for (cmd, words) in [
        ("remind", "the prompt again, with its token and options"),
        ("play", "the lines a mail may carry"),
    ] {
        let (help, _, _) = twilight(&[cmd, "--help"]);
        let help_one = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help_one.contains(words), "{cmd} --help: {help}");
        assert!(man_one.contains(words), "the man page's {cmd}: {man_one}");
    }
    assert!(!man_one.contains("Remind players who have owed a decision longer than mail.yaml"));
}

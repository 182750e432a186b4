//! The command line's conventions: shell completions and a manual page.

use assert_cmd::Command;

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

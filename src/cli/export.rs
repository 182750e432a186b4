//! `twilight export --html`: a self-contained HTML replay of a game from its public log; on a
//! folder of games, one page per game and an index page with the standings
//! (`twilight_pbem::picture::replay`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use twilight_pbem::picture::replay;
use twilight_pbem::session::Session;

/// The arguments of `twilight export`.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// A game folder, or a folder of game folders.
    path: PathBuf,
    /// The HTML file to write (for a folder: the index page; game pages go beside it).
    #[arg(long)]
    html: PathBuf,
}

/// `twilight export`.
pub fn exec(args: ExportArgs) -> Result<ExitCode> {
    export(&args.path, &args.html)?;
    Ok(ExitCode::SUCCESS)
}

fn page_of(dir: &Path) -> Result<(replay::GamePage, (String, String))> {
    let (s, steps) = Session::open_public_traced(dir)
        .with_context(|| format!("cannot replay the game in {}", dir.display()))?;
    let players = (s.players().us.clone(), s.players().ussr.clone());
    // The page is public: the host marks its log shows (no mail configuration read).
    let marks: Vec<String> = s.host_marks(None).iter().map(|m| m.sentence()).collect();
    let page = replay::game_page(
        s.game_id(),
        (&players.0, &players.1),
        &steps,
        s.is_revealed(),
        &marks,
    );
    Ok((page, players))
}

/// Writes one page: its folder is made when missing; an existing file that is not an HTML page
/// (a `log.yaml`, say) is never overwritten.
fn write(path: &Path, text: &str) -> Result<()> {
    let is_html = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if path.exists() && !is_html {
        bail!(
            "{} exists and is not an HTML page; not overwritten (name the page NAME.html)",
            path.display()
        );
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the replay page of the game in `path`, or, when `path` holds game folders, one page
/// per game beside `out` and the index page with the standings at `out`.
fn export(path: &Path, out: &Path) -> Result<()> {
    if path.join("log.yaml").is_file() {
        let (page, _) = page_of(path)?;
        write(out, &page.html)?;
        println!(
            "Wrote {} ({} steps; {}).",
            out.display(),
            page.steps,
            page.status
        );
        return Ok(());
    }
    let mut dirs: Vec<_> = std::fs::read_dir(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("log.yaml").is_file())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        bail!(
            "{} holds no log.yaml and no game folders with one",
            path.display()
        );
    }
    let base = out.parent().unwrap_or(Path::new("."));
    let mut games = Vec::new();
    for d in &dirs {
        let (page, players) = page_of(d)?;
        let file = base.join(format!("{}.html", page.game_id));
        if file == out {
            bail!(
                "the index {} would overwrite the page of game {}; choose another name",
                out.display(),
                page.game_id
            );
        }
        write(&file, &page.html)?;
        games.push((page, players));
    }
    let title = path
        .file_name()
        .map_or("games".to_string(), |n| n.to_string_lossy().into_owned());
    write(out, &replay::index_page(&title, &games))?;
    println!(
        "Wrote {} and {} beside it.",
        out.display(),
        twilight_pbem::text::wording::count(games.len() as u64, "game page", "game pages")
    );
    Ok(())
}

//! `view --format svg|png` and `export --html` (issue 16): the command-line side of
//! `twilight_pbem::picture`.

use std::path::Path;

use anyhow::{bail, Context, Result};

use twilight_pbem::data::Country;
use twilight_pbem::picture::{changed_countries, replay};
use twilight_pbem::session::{ReplayStep, Session};

/// The countries the last step changed and that step as text (`USSR: play 27 ops ...`).
pub fn last_move(steps: &[ReplayStep]) -> (Vec<Country>, Option<String>) {
    match steps {
        [.., a, b] => (
            changed_countries(&a.view, &b.view),
            Some(format!(
                "{}{}",
                b.side.map_or(String::new(), |s| format!("{}: ", s.name())),
                b.notation
            )),
        ),
        _ => (Vec::new(), None),
    }
}

/// The PNG of an SVG at scale 1, or a clear error when the binary was built without `png`.
pub fn png(svg: &str) -> Result<Vec<u8>> {
    #[cfg(feature = "png")]
    {
        Ok(twilight_pbem::picture::svg_to_png(svg, 1.0)?)
    }
    #[cfg(not(feature = "png"))]
    {
        let _ = svg;
        bail!("this binary was built without the `png` feature; use --format svg")
    }
}

fn page_of(dir: &Path) -> Result<(replay::GamePage, (String, String))> {
    let (s, steps) = Session::open_public_traced(dir)
        .with_context(|| format!("cannot replay the game in {}", dir.display()))?;
    let players = (s.players().us.clone(), s.players().ussr.clone());
    let page = replay::game_page(
        s.game_id(),
        (&players.0, &players.1),
        &steps,
        s.is_revealed(),
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
pub fn export(path: &Path, out: &Path) -> Result<()> {
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

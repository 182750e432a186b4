//! The board picture on the command line (`view --format svg|png`, `peer view`): the last
//! move highlighted, and the PNG of the SVG.

use anyhow::Result;

use twilight_pbem::data::Country;
use twilight_pbem::picture::changed_countries;
use twilight_pbem::session::ReplayStep;

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
        anyhow::bail!("this binary was built without the `png` feature; use --format svg")
    }
}

//! The board layout as data: `positions.yaml`, parsed once.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::data::{Country, Region, Side, Subregion, ALL_COUNTRIES, COUNTRY_COUNT};

/// The positions file, compiled in.
pub const POSITIONS_YAML: &str = include_str!("positions.yaml");

/// The positions file as JSON, made from [`POSITIONS_YAML`] at build time (`build.rs`): what
/// [`Layout::standard`] reads, in a tenth of the time a YAML parse takes.
pub const POSITIONS_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/positions.json"));

/// A point in SVG user units (px at scale 1).
pub type Point = [f32; 2];

/// A labelled place: a region's or sub-region's name and where to write it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// The text.
    pub label: String,
    /// Where its baseline starts.
    pub at: Point,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Place {
    at: Point,
    #[serde(default)]
    label: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Size {
    width: f32,
    height: f32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Superpowers {
    usa: Point,
    ussr: Point,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Panels {
    tracks: [f32; 4],
    cards: [f32; 4],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    canvas: Size,
    #[serde(rename = "box")]
    box_size: Size,
    header: f32,
    superpowers: Superpowers,
    panels: Panels,
    regions: BTreeMap<String, Label>,
    subregions: BTreeMap<String, Label>,
    countries: BTreeMap<String, Place>,
}

/// The board layout: canvas and box size, the centre of every country's box and of the two
/// superpower spaces, the panels for tracks and cards, and region labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Canvas width and height.
    pub canvas: [f32; 2],
    /// Country box width and height.
    pub box_size: [f32; 2],
    /// Height of the header band (title, VP, DEFCON).
    pub header: f32,
    /// Box centre of each country, indexed by `Country as usize`.
    pub centre: [Point; COUNTRY_COUNT],
    /// Box label of each country (the printed name unless the file shortens it).
    pub label: Vec<String>,
    /// Centre of the USA space and the USSR space.
    pub superpower: [Point; 2],
    /// The Space Race and Military Operations panel: x, y, width, height.
    pub tracks_panel: [f32; 4],
    /// The China Card, effects and cards panel: x, y, width, height.
    pub cards_panel: [f32; 4],
    /// Region labels.
    pub regions: Vec<(Region, Label)>,
    /// Sub-region labels.
    pub subregions: Vec<(Subregion, Label)>,
}

impl Layout {
    /// Parses a positions file. Errors name the missing or unknown country or region.
    pub fn parse(yaml: &str) -> Result<Layout, String> {
        Self::from_file(serde_yaml::from_str(yaml).map_err(|e| e.to_string())?)
    }

    /// Parses the positions file as JSON ([`POSITIONS_JSON`]); errors as [`Layout::parse`].
    pub fn parse_json(json: &str) -> Result<Layout, String> {
        Self::from_file(serde_json::from_str(json).map_err(|e| e.to_string())?)
    }

    fn from_file(f: File) -> Result<Layout, String> {
        let mut centre = [[0.0; 2]; COUNTRY_COUNT];
        let mut label = vec![String::new(); COUNTRY_COUNT];
        for (id, place) in &f.countries {
            let c = Country::from_id(id).ok_or_else(|| format!("unknown country `{id}`"))?;
            centre[c as usize] = place.at;
            label[c as usize] = place.label.clone().unwrap_or_else(|| c.name().to_string());
        }
        if let Some(c) = ALL_COUNTRIES
            .iter()
            .find(|c| !f.countries.contains_key(c.info().id))
        {
            return Err(format!("no position for {c}"));
        }
        let region = |id: &str| {
            Region::ALL
                .into_iter()
                .find(|r| region_id(*r) == id)
                .ok_or_else(|| format!("unknown region `{id}`"))
        };
        let subregion = |id: &str| match id {
            "western_europe" => Ok(Subregion::WesternEurope),
            "eastern_europe" => Ok(Subregion::EasternEurope),
            "southeast_asia" => Ok(Subregion::SoutheastAsia),
            _ => Err(format!("unknown sub-region `{id}`")),
        };
        Ok(Layout {
            canvas: [f.canvas.width, f.canvas.height],
            box_size: [f.box_size.width, f.box_size.height],
            header: f.header,
            centre,
            label,
            superpower: [f.superpowers.usa, f.superpowers.ussr],
            tracks_panel: f.panels.tracks,
            cards_panel: f.panels.cards,
            regions: f
                .regions
                .into_iter()
                .map(|(k, v)| Ok((region(&k)?, v)))
                .collect::<Result<_, String>>()?,
            subregions: f
                .subregions
                .into_iter()
                .map(|(k, v)| Ok((subregion(&k)?, v)))
                .collect::<Result<_, String>>()?,
        })
    }

    /// The bundled layout (`src/picture/positions.yaml`, read from its JSON form
    /// [`POSITIONS_JSON`]).
    pub fn standard() -> &'static Layout {
        static L: OnceLock<Layout> = OnceLock::new();
        L.get_or_init(|| {
            Layout::parse_json(POSITIONS_JSON).expect("the bundled positions file parses")
        })
    }

    /// The centre of a country's box.
    pub fn at(&self, c: Country) -> Point {
        self.centre[c as usize]
    }

    /// The centre of a superpower's space.
    pub fn superpower_at(&self, side: Side) -> Point {
        match side {
            Side::Us => self.superpower[0],
            Side::Ussr => self.superpower[1],
        }
    }
}

/// The snake_case id of a region, as in the map data.
pub fn region_id(r: Region) -> &'static str {
    match r {
        Region::Europe => "europe",
        Region::Asia => "asia",
        Region::MiddleEast => "middle_east",
        Region::Africa => "africa",
        Region::CentralAmerica => "central_america",
        Region::SouthAmerica => "south_america",
    }
}

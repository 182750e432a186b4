//! Arguments several commands share: the side, the output format, the way the game is played
//! (`new`, `selfplay`) and the mail options of the commands that move a game on.

use anyhow::{bail, Result};
use clap::ValueEnum;

use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;

#[derive(Clone, Copy, ValueEnum)]
pub enum SideArg {
    Us,
    Ussr,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::Us => Side::Us,
            SideArg::Ussr => Side::Ussr,
        }
    }
}

/// `--format` of `view`: text, fields or the board picture.
// The docstrings of `Svg` and `Png` are the help of those values, printed by `--help` and
// written into the completion scripts.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Yaml,
    Json,
    /// The board picture as SVG.
    Svg,
    /// The board picture as PNG (feature `png`).
    Png,
}

/// `--format` of `status`, `moves` and `verify`, which print facts, not a picture: clap
/// refuses `svg` and `png` with the values it takes and exit status 2.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FactsFormat {
    Text,
    Yaml,
    Json,
}

/// Mail options of commands that move the game on.
#[derive(clap::Args)]
pub struct MailArgs {
    /// Send no mail (the prompts can be sent later with `twilight mail`).
    #[arg(long)]
    pub no_mail: bool,
    /// Write mails to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    pub outbox: bool,
}

/// The way the game is played: scenario, variants, cards, bonus Influence (shared by `new`
/// and `selfplay`; recorded in entry 0's `options`).
#[derive(clap::Args)]
pub struct VariantArgs {
    /// Leave out the optional cards 104–110 (they are in by default).
    #[arg(long)]
    no_optional_cards: bool,
    /// Extra US setup Influence (the +2 convention or a bid; FAQ F008). Default 2 in the
    /// standard game, 0 (and nothing else allowed) in the Late War scenario.
    #[arg(long)]
    us_bonus: Option<u8>,
    /// Extra USSR setup Influence (a bid; FAQ F009).
    #[arg(long, default_value_t = 0)]
    ussr_bonus: u8,
    /// The starting position: `standard` (1945) or `late-war` (1975–1989, turn 8; FAQ F186).
    #[arg(long, value_enum, default_value = "standard")]
    scenario: ScenarioArg,
    /// The Chinese Civil War variant (rulebook section 12; FAQ F163).
    #[arg(long)]
    chinese_civil_war: bool,
    /// Tournament cap: bonus Influence may not take a country more than N beyond Control
    /// (rule 11.1.4.1 gives 2; no cap by default).
    #[arg(long, value_name = "N")]
    bonus_cap: Option<u8>,
    /// Promo packs to shuffle in: `1` (cards 117–120), `2` (cards 121–124), or `all`.
    #[arg(long, num_args = 1.., value_name = "PACK")]
    promos: Vec<String>,
    /// Sides by the blind bid (Deluxe rule 11; FAQ F004, F009): each player seals a superpower
    /// and a bid of Influence; the loser of the bid places it after setup (with --bonus-cap
    /// as the cap beyond Control). `new` then takes `--player EMAIL --player EMAIL`;
    /// `selfplay` draws random bids.
    #[arg(long, conflicts_with_all = ["us_bonus", "ussr_bonus"])]
    bid: bool,
    /// Turn Zero: six crises of 1945 resolved with sealed superpower cards before the setup
    /// (turn-zero-rulebook.txt).
    #[arg(long)]
    turn_zero: bool,
    /// The alternative Space Race track of the Turn Zero box, with its milestone abilities
    /// (Artificial Earth Satellite, Moon Landing, Missile Defense, Neutron Bomb) instead of the
    /// standard track's (turn-zero-rulebook.txt "Alternative Space Race Track").
    #[arg(long)]
    alt_space_race: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum ScenarioArg {
    Standard,
    LateWar,
}

impl VariantArgs {
    /// The engine options these flags name, checked for combinations the rules exclude.
    pub fn options(&self) -> Result<Options> {
        let scenario = match self.scenario {
            ScenarioArg::Standard => twilight_pbem::engine::Scenario::Standard,
            ScenarioArg::LateWar => twilight_pbem::engine::Scenario::LateWar,
        };
        let mut promos = Vec::new();
        for p in &self.promos {
            match p.as_str() {
                "all" => promos.extend([1, 2]),
                "1" => promos.push(1),
                "2" => promos.push(2),
                other => bail!("no promo pack `{other}`: give 1, 2 or all"),
            }
        }
        promos.sort();
        promos.dedup();
        let default_us = if scenario == twilight_pbem::engine::Scenario::LateWar || self.bid {
            0
        } else {
            2
        };
        let options = Options {
            optional_cards: !self.no_optional_cards,
            us_bonus: self.us_bonus.unwrap_or(default_us),
            ussr_bonus: self.ussr_bonus,
            chinese_civil_war: self.chinese_civil_war,
            scenario,
            promos,
            turn_zero: self.turn_zero,
            alt_space_race: self.alt_space_race,
            bonus_cap_over_control: self.bonus_cap,
            bid: self.bid,
            ..Options::default()
        };
        options.check().map_err(anyhow::Error::msg)?;
        Ok(options)
    }
}

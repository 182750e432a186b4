//! Where the moderator's games are, so that `inbox` run from any folder finds them:
//! `--games DIR`, else `$TWILIGHT_GAMES`, else the `games:` line of the config file
//! (`$TWILIGHT_CONFIG`, else `$XDG_CONFIG_HOME/twilight/config.yaml`, else
//! `~/.config/twilight/config.yaml`), else `./games`. The folder must exist: a mistyped or
//! missing one is refused before any mail is read, so no valid mail is ever refused to a player
//! because the moderator ran `inbox` from the wrong folder.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The config file's settings (all optional).
///
/// ```yaml
/// games: /srv/twilight/games   # relative paths are relative to the config file's folder
/// ```
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The folder holding the game folders.
    #[serde(default)]
    pub games: Option<PathBuf>,
}

/// The config file's path: `$TWILIGHT_CONFIG`, else `$XDG_CONFIG_HOME/twilight/config.yaml`,
/// else `$HOME/.config/twilight/config.yaml`; `None` without any of these variables.
pub fn config_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    if let Some(p) = set("TWILIGHT_CONFIG") {
        return Some(PathBuf::from(p));
    }
    if let Some(x) = set("XDG_CONFIG_HOME") {
        return Some(Path::new(&x).join("twilight").join("config.yaml"));
    }
    set("HOME").map(|h| Path::new(&h).join(".config/twilight/config.yaml"))
}

/// The games folder (see the module doc) and where the choice came from (`--games`,
/// `$TWILIGHT_GAMES`, the config file's path, or `default`).
///
/// Errors: a config file that exists but cannot be read or parsed; a folder that does not
/// exist (the message names it and where it came from); the folder of one game (it holds a
/// `log.yaml`: the message gives the folder that holds it).
pub fn games_dir(
    explicit: Option<PathBuf>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(PathBuf, String), String> {
    let (dir, from) = if let Some(d) = explicit {
        (d, "--games".to_string())
    } else if let Some(d) = env("TWILIGHT_GAMES").filter(|v| !v.is_empty()) {
        (PathBuf::from(d), "$TWILIGHT_GAMES".to_string())
    } else {
        match config_path(env).filter(|p| p.is_file()) {
            Some(cfg) => {
                let text =
                    std::fs::read_to_string(&cfg).map_err(|e| format!("{}: {e}", cfg.display()))?;
                let c: Config = if text.trim().is_empty() {
                    Config::default()
                } else {
                    serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", cfg.display()))?
                };
                match c.games {
                    Some(g) if g.is_relative() => (
                        cfg.parent().unwrap_or(Path::new(".")).join(g),
                        cfg.display().to_string(),
                    ),
                    Some(g) => (g, cfg.display().to_string()),
                    None => (PathBuf::from("games"), "default".to_string()),
                }
            }
            None => (PathBuf::from("games"), "default".to_string()),
        }
    };
    if !dir.is_dir() {
        return Err(format!(
            "the games folder {} (from {from}) does not exist; give it with --games DIR, \
             $TWILIGHT_GAMES or `games:` in the config file",
            dir.display()
        ));
    }
    if dir.join("log.yaml").is_file() {
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        return Err(format!(
            "{} (from {from}) is the folder of one game; the games folder is the folder that              holds the game folders: --games {}",
            dir.display(),
            parent.display()
        ));
    }
    Ok((dir, from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_comes_from_the_flag_the_environment_or_the_config_file() {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("g");
        std::fs::create_dir_all(&games).unwrap();
        let cfg = tmp.path().join("config.yaml");
        std::fs::write(&cfg, "games: g\n").unwrap();
        let c = cfg.to_string_lossy().into_owned();
        let g = games.to_string_lossy().into_owned();
        let none = |_: &str| None;
        assert!(games_dir(None, &none).is_err() || Path::new("games").is_dir());
        let by_env = |k: &str| (k == "TWILIGHT_GAMES").then(|| g.clone());
        assert_eq!(games_dir(None, &by_env).unwrap().0, games);
        let by_cfg = |k: &str| (k == "TWILIGHT_CONFIG").then(|| c.clone());
        let (d, from) = games_dir(None, &by_cfg).unwrap();
        assert_eq!(d, tmp.path().join("g"));
        assert_eq!(from, c);
        let e = games_dir(Some(tmp.path().join("nope")), &none).unwrap_err();
        assert!(e.contains("does not exist") && e.contains("--games"), "{e}");
    }
}

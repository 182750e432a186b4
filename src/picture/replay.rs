//! The replay page (`export --html`): one self-contained HTML file (no network, no external
//! script or font) that replays a game from its public log, with the board picture at every
//! step, the move list with each move's effects, keyboard and click navigation, and each
//! entry's hash; and an index page with the standings for a folder of games.
//!
//! The page holds the static layer of the picture once, every distinct piece once (a country
//! box in one state, a track, a panel) and, per step, the list of its pieces, so a 600-step game
//! is a few hundred KB. The pieces are those [`super::svg::pieces`] draws for the PNG.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::data::Side;
use crate::engine::view::View;
use crate::session::ReplayStep;

use super::layout::Layout;
use super::svg::{self, esc};

/// One game's page, with what the index page needs to know of it.
#[derive(Debug, Clone)]
pub struct GamePage {
    /// The game id (its folder's name).
    pub game_id: String,
    /// The HTML document.
    pub html: String,
    /// A one-line state: `Turn 4, Action Round 2, VP US +3` or the outcome.
    pub status: String,
    /// The winner, once the game is over (`Some(None)` for a draw).
    pub result: Option<Option<Side>>,
    /// Steps in the page.
    pub steps: usize,
}

/// What one step changed, in words: Influence by country, VP, DEFCON, Military Operations,
/// Space Race, the China Card, effects, turn and round, the outcome.
pub fn describe_changes(before: &View, after: &View) -> Vec<String> {
    let mut out = Vec::new();
    for c in super::changed_countries(before, after) {
        let inf = |v: &View| {
            v.board
                .iter()
                .find(|cv| cv.country == c)
                .map_or((0, 0), |cv| (cv.us, cv.ussr))
        };
        let (a, b) = (inf(before), inf(after));
        let mut parts = Vec::new();
        if a.0 != b.0 {
            parts.push(format!("US {}→{}", a.0, b.0));
        }
        if a.1 != b.1 {
            parts.push(format!("USSR {}→{}", a.1, b.1));
        }
        out.push(format!("{c}: {}", parts.join(", ")));
    }
    if before.vp != after.vp {
        out.push(format!(
            "VP {} → {}",
            crate::engine::vp_text(before.vp),
            crate::engine::vp_text(after.vp)
        ));
    }
    if before.defcon != after.defcon {
        out.push(format!("DEFCON {} → {}", before.defcon, after.defcon));
    }
    for side in Side::BOTH {
        if before.milops[side] != after.milops[side] && after.turn == before.turn {
            out.push(format!(
                "{} Military Operations {} → {}",
                side.name(),
                before.milops[side],
                after.milops[side]
            ));
        }
        if before.space[side] != after.space[side] {
            out.push(format!(
                "{} Space Race {} → {}",
                side.name(),
                before.space[side],
                after.space[side]
            ));
        }
    }
    if (before.china_holder, before.china_face_up) != (after.china_holder, after.china_face_up) {
        out.push(format!(
            "China Card: {} ({})",
            after.china_holder.map_or("unclaimed", |s| s.name()),
            if after.china_face_up {
                "face up"
            } else {
                "face down"
            }
        ));
    }
    for e in &after.effects {
        if !before.effects.contains(e) {
            out.push(format!("in effect: {}", e.card.name()));
        }
    }
    for e in &before.effects {
        if !after.effects.contains(e) {
            out.push(format!("ended: {}", e.card.name()));
        }
    }
    if (before.turn, before.action_round) != (after.turn, after.action_round) {
        out.push(if after.action_round == 0 {
            format!("Turn {} Headline Phase", after.turn)
        } else {
            format!("Turn {} Action Round {}", after.turn, after.action_round)
        });
    }
    if before.outcome.is_none() {
        if let Some(o) = &after.outcome {
            out.push(match o.winner {
                Some(w) => format!("{} wins ({})", w.name(), o.reason.describe()),
                None => format!("a draw ({})", o.reason.describe()),
            });
        }
    }
    out
}

fn status_of(v: &View) -> String {
    match &v.outcome {
        Some(o) => match o.winner {
            Some(w) => format!(
                "{} won on turn {} ({})",
                w.name(),
                v.turn,
                o.reason.describe()
            ),
            None => format!("drawn on turn {} ({})", v.turn, o.reason.describe()),
        },
        None => format!(
            "in progress: turn {}, {}, VP {}, DEFCON {}",
            v.turn,
            if v.action_round == 0 {
                "Headline Phase".to_string()
            } else {
                format!("Action Round {}", v.action_round)
            },
            crate::engine::vp_text(v.vp),
            v.defcon
        ),
    }
}

/// JSON for a `<script type="application/json">` block: `<` escaped so no `</script>` can
/// close it early.
fn script_json<T: serde::Serialize>(t: &T) -> String {
    serde_json::to_string(t)
        .expect("strings and numbers serialize")
        .replace('<', "\\u003c")
}

/// The replay page of one game from its traced public replay (`Session::open_public_traced`).
/// `players` are (US, USSR) addresses as the log names them; `revealed` says the seed is
/// public, so the steps' views may show hands.
pub fn game_page(
    game_id: &str,
    players: (&str, &str),
    steps: &[ReplayStep],
    revealed: bool,
    marks: &[String],
) -> GamePage {
    let l = Layout::standard();
    let mut table: HashMap<String, usize> = HashMap::new();
    let mut pieces: Vec<String> = Vec::new();
    let mut frames: Vec<Vec<usize>> = Vec::with_capacity(steps.len());
    let mut items = String::new();
    for (i, st) in steps.iter().enumerate() {
        let (changed, changes) = match i.checked_sub(1).map(|p| &steps[p].view) {
            Some(prev) => (
                super::changed_countries(prev, &st.view),
                describe_changes(prev, &st.view),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let who = st.side.map_or(String::new(), |s| format!("{}: ", s.name()));
        let caption = format!("{who}{}", st.notation);
        let frame = svg::pieces(l, &st.view, &changed, Some(&caption))
            .into_iter()
            .map(|p| {
                let n = pieces.len();
                *table.entry(p).or_insert_with_key(|p| {
                    pieces.push(p.clone());
                    n
                })
            })
            .collect();
        frames.push(frame);
        let hash = st.hash.to_string();
        let side_class = match st.side {
            Some(Side::Us) => "us",
            Some(Side::Ussr) => "ussr",
            None => "mod",
        };
        let _ = write!(
            items,
            r##"<li id="seq-{seq}" data-step="{i}" class="{side_class}"><span class="mv"><b>{}</b>{}</span><a class="hash" href="#seq-{seq}" title="SHA-256 of log entry {seq}: {hash}">#{seq} {}</a>"##,
            esc(&who),
            esc(&st.notation),
            &hash[..12],
            seq = st.seq,
        );
        if !changes.is_empty() {
            let _ = write!(
                items,
                r#"<span class="fx">{}</span>"#,
                esc(&changes.join(" · "))
            );
        }
        items.push_str("</li>");
    }
    let last = steps.last().map(|s| &s.view);
    let status = last.map_or("not started".to_string(), status_of);
    let result = last.and_then(|v| v.outcome.as_ref().map(|o| o.winner));
    let data = script_json(&serde_json::json!({
        "open": svg::open_tag(l),
        "static": svg::static_layer(l),
        "pieces": pieces,
        "frames": frames,
    }));
    let info = if revealed {
        "The seed is revealed: every roll, shuffle and deal of this replay is verified from it."
    } else {
        "Public information only: hands and the deck stay hidden."
    };
    // The host marks (FAIRNESS.md §2 "What the host can do"), one warning line each.
    let warnings: String = marks
        .iter()
        .map(|m| format!(r#"<p class="warn">⚠ {}</p>"#, esc(m)))
        .collect();
    let html = format!(
        r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>Twilight Struggle {gid} — replay</title>
<style>{CSS}</style></head>
<body>
<header><h1>Twilight Struggle · {gid}</h1><p>US {us} · USSR {ussr} · {status_e}. {info}</p>{warnings}</header>
<nav><button id="first" title="first (Home)">« first</button><button id="prev" title="back (←)">‹ back</button><span id="pos"></span><button id="next" title="forward (→)">next ›</button><button id="last" title="last (End)">last »</button><input id="slider" type="range" min="0" max="{max}" value="0" aria-label="step"></nav>
<main><div id="board" aria-live="polite"></div><ol id="moves">{items}</ol></main>
<footer>Keys: ← → step, PageUp/PageDown ten steps, Home/End. Click a move to jump. Each hash is the SHA-256 of that entry's bytes in log.yaml; <code>twilight verify</code> checks the chain.</footer>
<script type="application/json" id="data">{data}</script>
<script>{JS}</script>
</body></html>
"##,
        gid = esc(game_id),
        us = esc(players.0),
        ussr = esc(players.1),
        status_e = esc(&status),
        max = steps.len().saturating_sub(1),
    );
    GamePage {
        game_id: game_id.to_string(),
        html,
        status,
        result,
        steps: steps.len(),
    }
}

/// The index page of a folder of games: the standings (per player address: games, wins,
/// draws, losses, in progress) and one line per game linking to `<game>.html`.
pub fn index_page(title: &str, games: &[(GamePage, (String, String))]) -> String {
    #[derive(Default)]
    struct Row {
        played: u32,
        won: u32,
        drawn: u32,
        lost: u32,
        open: u32,
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for (g, (us, ussr)) in games {
        for (who, side) in [(us, Side::Us), (ussr, Side::Ussr)] {
            let r = rows.entry(who.clone()).or_default();
            match g.result {
                None => r.open += 1,
                Some(w) => {
                    r.played += 1;
                    match w {
                        None => r.drawn += 1,
                        Some(w) if w == side => r.won += 1,
                        Some(_) => r.lost += 1,
                    }
                }
            }
        }
    }
    let mut ranked: Vec<(String, Row)> = rows.into_iter().collect();
    ranked.sort_by(|a, b| {
        let pts = |r: &Row| 2 * r.won + r.drawn;
        pts(&b.1)
            .cmp(&pts(&a.1))
            .then(b.1.won.cmp(&a.1.won))
            .then(a.0.cmp(&b.0))
    });
    let mut standings = String::new();
    for (i, (who, r)) in ranked.iter().enumerate() {
        let _ = write!(
            standings,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            i + 1,
            esc(who),
            r.played,
            r.won,
            r.drawn,
            r.lost,
            2 * r.won + r.drawn,
            r.open
        );
    }
    let mut list = String::new();
    for (g, (us, ussr)) in games {
        let _ = write!(
            list,
            r#"<tr><td><a href="{id}.html">{id}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            esc(us),
            esc(ussr),
            esc(&g.status),
            g.steps,
            id = esc(&g.game_id)
        );
    }
    format!(
        r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t} — Twilight Struggle games</title><style>{CSS}</style></head><body class="index">
<header><h1>{t}</h1><p>{n}. Points: 2 a win, 1 a draw; games in progress count only under “open”.</p></header>
<h2>Standings</h2>
<table><thead><tr><th>#</th><th>player</th><th>finished</th><th>won</th><th>drawn</th><th>lost</th><th>points</th><th>open</th></tr></thead><tbody>{standings}</tbody></table>
<h2>Games</h2>
<table><thead><tr><th>game</th><th>US</th><th>USSR</th><th>state</th><th>steps</th></tr></thead><tbody>{list}</tbody></table>
</body></html>
"##,
        t = esc(title),
        n = crate::text::wording::count(games.len() as u64, "game", "games")
    )
}

const CSS: &str = r##"
*{box-sizing:border-box}
body{margin:0;font:15px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;background:#eef2f5;color:#1e2227}
header{background:#22262c;color:#fff;padding:8px 14px}header h1{font-size:20px;margin:0}header p{margin:2px 0 0;color:#c9d1da;font-size:13px}header p.warn{color:#ffd27a;font-weight:600}
nav{position:sticky;top:0;z-index:2;display:flex;gap:6px;align-items:center;padding:6px 14px;background:#fff;border-bottom:1px solid #c9d1da}
nav button{font-size:15px;padding:2px 10px;border:1px solid #9aa3ad;border-radius:5px;background:#f7f9fb;cursor:pointer}
nav #pos{min-width:9em;text-align:center;font-variant-numeric:tabular-nums}nav input{flex:1}
main{display:flex;gap:10px;padding:10px;align-items:flex-start}
#board{flex:3;min-width:0}#board svg{width:100%;height:auto;display:block;border-radius:6px;box-shadow:0 1px 4px #0003}
#moves{flex:1;min-width:260px;max-height:calc(100vh - 120px);overflow:auto;margin:0;padding:0 0 0 0;list-style:none;background:#fff;border-radius:6px;box-shadow:0 1px 4px #0002;font-size:13px}
#moves li{padding:4px 8px;border-bottom:1px solid #e4e8ec;cursor:pointer;display:flex;flex-wrap:wrap;gap:2px 8px}
#moves li.us{border-left:4px solid #1d4f9c}#moves li.ussr{border-left:4px solid #b01f2a}#moves li.mod{border-left:4px solid #777}
#moves li.now{background:#fff3cf}#moves .mv{flex:1}#moves .fx{flex-basis:100%;color:#555d66;font-size:12px}
#moves .hash{font-family:ui-monospace,monospace;font-size:11px;color:#6b7480;text-decoration:none}
footer{padding:6px 14px 14px;color:#555d66;font-size:12px}
@media (max-width:900px){main{flex-direction:column}#moves{max-height:40vh;width:100%}}
.index table{border-collapse:collapse;margin:8px 14px;background:#fff}.index td,.index th{border:1px solid #c9d1da;padding:4px 8px;text-align:left}.index h2{margin:14px 14px 0;font-size:17px}
"##;

const JS: &str = r##"
(function(){
"use strict";
var D=JSON.parse(document.getElementById("data").textContent);
var board=document.getElementById("board"),pos=document.getElementById("pos"),slider=document.getElementById("slider");
var items=document.querySelectorAll("#moves li"),n=D.frames.length,cur=-1;
function show(i,scroll){
  if(n===0){pos.textContent="no moves";return;}
  i=Math.max(0,Math.min(n-1,i));if(i===cur)return;
  var f=D.frames[i],parts=[D.open,D.static];
  for(var k=0;k<f.length;k++)parts.push(D.pieces[f[k]]);
  parts.push("</svg>");board.innerHTML=parts.join("");
  if(cur>=0&&items[cur])items[cur].classList.remove("now");
  cur=i;var li=items[i];
  if(li){li.classList.add("now");if(scroll){var ml=li.parentNode,t=li.offsetTop-ml.offsetTop;if(t<ml.scrollTop||t+li.offsetHeight>ml.scrollTop+ml.clientHeight)ml.scrollTop=t-ml.clientHeight/3;}
    if(history.replaceState)history.replaceState(null,"","#"+li.id);}
  pos.textContent="step "+(i+1)+" / "+n;slider.value=String(i);
  document.body.setAttribute("data-step",String(i));
}
function go(d){show(cur+d,true);}
document.getElementById("first").onclick=function(){show(0,true)};
document.getElementById("prev").onclick=function(){go(-1)};
document.getElementById("next").onclick=function(){go(1)};
document.getElementById("last").onclick=function(){show(n-1,true)};
slider.oninput=function(){show(parseInt(slider.value,10),true)};
document.getElementById("moves").addEventListener("click",function(e){
  var li=e.target.closest("li");if(!li)return;e.preventDefault();show(parseInt(li.getAttribute("data-step"),10),false);});
document.addEventListener("keydown",function(e){
  if(e.target===slider)return;
  var k=e.key,m={"ArrowRight":1,"ArrowDown":1,"j":1,"ArrowLeft":-1,"ArrowUp":-1,"k":-1,"PageDown":10,"PageUp":-10};
  if(k in m){go(m[k]);e.preventDefault();}
  else if(k==="Home"){show(0,true);e.preventDefault();}
  else if(k==="End"){show(n-1,true);e.preventDefault();}
});
var start=0,h=location.hash.match(/^#seq-(\d+)$/);
if(h){var el=document.getElementById("seq-"+h[1]);if(el)start=parseInt(el.getAttribute("data-step"),10);}
show(start,true);
})();
"##;

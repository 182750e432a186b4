//! What the peer commands show the player: what is owed, the decision with the hand and a
//! sample of legal moves, the news since the last decision with the board, the command that
//! draws the board, and a move of the opponent found wrong.

use std::path::Path;

use twilight_pbem::peer::play::{GameFault, PeerGame};

/// The heading of the news: what happened since the player's last decision.
pub const NEWS_HEADING: &str = "== What happened since your last decision ==";

/// What the folder's game owes now, in words.
pub fn owed_text(g: &PeerGame) -> String {
    use twilight_pbem::peer::game_check::outcome_text;
    use twilight_pbem::peer::play::Owed;
    let me = g.side();
    match g.owed() {
        Owed::Done => match (g.verified(), g.outcome()) {
            (Some(Ok(_)), Some(o)) => format!(
                "The game is over: {} in turn {}; both seeds are revealed and every step \
                 verifies.",
                outcome_text(&o),
                g.game().state().turn
            ),
            (Some(Err(f)), _) => format!("The game is over; the check after the end finds: {f}"),
            _ => "The game is over.".into(),
        },
        Owed::Decide(s) if s == me => "Your decision.".into(),
        Owed::Final(s) => format!(
            "The game is over: {} in turn {}; awaiting the {}'s final reveal of its seed (a \
             player who refuses it forfeits).",
            g.outcome().map_or_else(String::new, |o| outcome_text(&o)),
            g.game().state().turn,
            s.name()
        ),
        o => match o.side() {
            Some(s) if s == me => format!(
                "Your software owes {}; run `twilight peer inbox` (it writes and mails them).",
                o.what()
            ),
            _ => format!("Waiting for the {} ({}).", me.opponent().name(), o.what()),
        },
    }
}

/// Whether the next move of `g` is a decision of its own player.
pub fn mine_to_decide(g: &PeerGame) -> bool {
    matches!(g.owed(), twilight_pbem::peer::play::Owed::Decide(s) if s == g.side())
}

/// Prints what is owed and, when it is this player's decision, the hand, the prompt and every
/// legal move (each one `peer play` accepts).
pub fn show(g: &PeerGame) {
    println!("{}", owed_text(g));
    let Some(prompt) = g.prompt() else {
        return;
    };
    let hand: Vec<String> = g.hand().iter().map(|c| c.to_string()).collect();
    println!("Your hand: {}", hand.join(", "));
    println!("{}", prompt.text);
    println!("Legal moves (a sample; each is a MOVE for `twilight peer play GAME_DIR MOVE`):");
    let mut rng = twilight_pbem::engine::SeededChance::new(0);
    let mut shown = Vec::new();
    for a in twilight_pbem::engine::legal::legal_answers(g.game(), g.side(), &mut rng, 8) {
        if g.check_answer(&a).is_ok() {
            let text = twilight_pbem::text::notation::format_answer(&a, prompt);
            if !shown.contains(&text) {
                println!("  {text}");
                shown.push(text);
            }
        }
    }
}

/// The last line of `peer inbox` and `peer status`: the command that draws the board as the
/// player may see it as a picture (`peer view --format png`), with the folder as given.
pub fn picture_line(game_dir: &Path) -> String {
    let dir = game_dir.display().to_string();
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:,@%".contains(c);
    let dir = if !dir.is_empty() && dir.chars().all(safe) {
        dir
    } else {
        format!("'{}'", dir.replace('\'', "'\\''"))
    };
    format!("The board as a picture: twilight peer view {dir} --format png --out board.png")
}

/// Prints what happened since the player's last decision, then the board as the player may
/// see it ([`twilight_pbem::peer::view`]), under the moderated mail's headings.
pub fn show_board(g: &PeerGame) {
    use twilight_pbem::peer::view::{board_text, news_text};
    println!("{NEWS_HEADING}");
    print!("{}", news_text(g));
    println!();
    println!("{}", twilight_pbem::mail::outbound::BOARD_HEADING);
    println!("{}", board_text(g));
}

/// Prints a move of the opponent found wrong, naming its entry and the party at fault.
pub fn report_fault(f: &GameFault) {
    eprintln!(
        "FINDING entry {}: bad move: {} — at fault: the {}; the game stops here (`twilight \
         verify` names it too)",
        f.entry + 2,
        f.why,
        f.party.name()
    );
}

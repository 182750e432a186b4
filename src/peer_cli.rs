//! The peer-mode commands of `twilight` (issue 19): `keygen`, `new --peer`, `join --peer`,
//! `peer inbox`, `peer send`, `peer status`, and `verify` of peer folders.
//!
//! Exit codes of `peer inbox` (the first problem's): 0 every mail taken in (or a duplicate), 20 a
//! fork (two different signed entries after one head), 21 an entry with a bad signature (a
//! mail refused whole, nothing taken: forged or corrupted) or a validly signed entry that does
//! not link (replayed, reordered), 22 an acknowledgement of another history, 23 a mail without
//! a readable bundle or for another game or side (left in new/), 24 a move of the opponent
//! against the rules or the protocol, 2 a file error. `verify`: 0, or 1 with every finding.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};

use crate::Deferred;

use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::mail::transport::Transport;
use twilight_pbem::peer::dispute::{self, FindingKind, ReplicaView};
use twilight_pbem::peer::identity::Identity;
use twilight_pbem::peer::play::check_peer_options;
use twilight_pbem::peer::replica::{self, PeerConfig, Replica};
use twilight_pbem::peer::sync::{self, BundleError, Envelope};

/// Exit code: a fork.
pub const EXIT_FORK: u8 = 20;
/// Exit code: an entry with a bad signature or link.
pub const EXIT_BAD_ENTRY: u8 = 21;
/// Exit code: an acknowledgement of another history.
pub const EXIT_ACK: u8 = 22;
/// Exit code: a mail without a readable bundle, or not for this game.
pub const EXIT_BAD_MAIL: u8 = 23;
/// Exit code: a move of the opponent against the rules or the protocol (the game stops).
pub const EXIT_BAD_MOVE: u8 = 24;

/// `twilight keygen`.
#[derive(Args)]
pub struct KeygenArgs {
    /// The private key file to write (mode 0600; never overwritten) [default: $TWILIGHT_KEY,
    /// else ~/.config/twilight/peer-key.yaml].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The peer-mode options of `twilight new`.
#[derive(Args)]
pub struct PeerNewArgs {
    /// Start a peer-mode game (no host): this folder is your replica.
    #[arg(long)]
    pub peer: bool,
    /// Your side.
    #[arg(long = "as", ignore_case = true, requires = "peer")]
    side: Option<crate::SideArg>,
    /// Your e-mail address.
    #[arg(long, requires = "peer")]
    me: Option<String>,
    /// Your opponent's e-mail address.
    #[arg(long, requires = "peer")]
    opponent: Option<String>,
    /// Your private key file [default: as `keygen`].
    #[arg(long, requires = "peer")]
    key: Option<PathBuf>,
}

/// The peer-mode options of `twilight join`.
#[derive(Args)]
pub struct PeerJoinArgs {
    /// Join a peer-mode game from the opponent's first mail (this folder becomes your replica).
    #[arg(long)]
    pub peer: bool,
    /// The opponent's first mail (an .eml file).
    #[arg(long = "from-mail", requires = "peer")]
    from_mail: Option<PathBuf>,
    /// Your e-mail address [default: the one the first mail names for your side].
    #[arg(long = "me", requires = "peer")]
    me: Option<String>,
    /// Your private key file [default: as `keygen`].
    #[arg(long = "key", requires = "peer")]
    key: Option<PathBuf>,
    /// Accept the game's options when they are not the standard ones (`join` shows them).
    #[arg(long = "accept-options", requires = "peer")]
    accept_options: bool,
}

/// `twilight peer …`.
#[derive(Subcommand)]
pub enum PeerCommand {
    /// Take in the opponent's mails (Maildir new/ messages or .eml files), write every move
    /// your software owes, mail them when the next move is the opponent's, and show the
    /// decision you owe (DEALERLESS.md §9); with `--reply`, mail an acknowledgement even when
    /// nothing else is mailed.
    Inbox(Deferred<PeerInboxArgs>),
    /// Mail the opponent every entry they have not acknowledged, with your acknowledgement.
    Send(Deferred<PeerSendArgs>),
    /// The game: brings it up to the log (writing the moves your software owes), then shows
    /// the decision you owe, your hand and your legal moves (DEALERLESS.md §9).
    Moves(Deferred<PeerMovesArgs>),
    /// Plays your move (the moderator mode's notation); when the next move is the
    /// opponent's, mails them every entry they have not acknowledged (else shows your next
    /// decision and mails with it).
    Play(Deferred<PeerPlayArgs>),
    /// The replica (sides, fingerprints, entries held and acknowledged, findings), then what
    /// happened since your last decision, the board as you may see it (your hand, never the
    /// opponent's) and what is owed; writes nothing.
    Status(Deferred<PeerStatusArgs>),
    /// The board as you may see it, like the moderated `view --as SIDE`: text, the view as
    /// YAML or JSON, or the map picture (SVG, PNG); writes nothing to the game.
    View(Deferred<PeerViewArgs>),
}

/// The arguments of `twilight peer inbox`.
#[derive(clap::Args)]
pub struct PeerInboxArgs {
    /// Your game folder.
    game_dir: PathBuf,
    /// Maildir folders or .eml files.
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// Mail an acknowledgement back even when no move of yours is to be mailed.
    #[arg(long)]
    reply: bool,
    /// Write mails to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// The arguments of `twilight peer send`.
#[derive(clap::Args)]
pub struct PeerSendArgs {
    /// Your game folder.
    game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// The arguments of `twilight peer moves`.
#[derive(clap::Args)]
pub struct PeerMovesArgs {
    /// Your game folder.
    game_dir: PathBuf,
}

/// The arguments of `twilight peer play`.
#[derive(clap::Args)]
pub struct PeerPlayArgs {
    /// Your game folder.
    game_dir: PathBuf,
    /// The move, e.g. `play Nasser event` or `influence Iran 1, Iraq 1`, as `twilight peer
    /// moves` lists them.
    #[arg(required = true)]
    words: Vec<String>,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// The arguments of `twilight peer status`.
#[derive(clap::Args)]
pub struct PeerStatusArgs {
    /// Your game folder.
    game_dir: PathBuf,
    /// Output format (`json`/`yaml`: the same facts as fields, the board as the
    /// moderated `view --format json` gives it).
    #[arg(long, value_enum, default_value = "text")]
    format: PeerFormat,
}

/// The arguments of `twilight peer view`.
#[derive(clap::Args)]
pub struct PeerViewArgs {
    /// Your game folder.
    game_dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: ViewFormat,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The output format of `peer status` and of `verify` on peer folders.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PeerFormat {
    /// Readable text.
    Text,
    /// YAML.
    Yaml,
    /// JSON.
    Json,
}

/// The output format of `peer view`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewFormat {
    /// The text board (as `view --as SIDE`).
    Text,
    /// The view as YAML.
    Yaml,
    /// The view as JSON.
    Json,
    /// The map picture as SVG.
    Svg,
    /// The map picture as PNG (feature `png`).
    Png,
}

/// The key file given (or the default), made absolute: the game folder records it, and a
/// relative path would break every later command run from another directory.
fn key_path(key: &Option<PathBuf>) -> PathBuf {
    let p = key.clone().unwrap_or_else(Identity::default_path);
    std::path::absolute(&p).unwrap_or(p)
}

/// `twilight keygen`.
pub fn keygen(args: &KeygenArgs) -> Result<ExitCode> {
    let path = key_path(&args.out);
    let id = Identity::generate()?;
    id.save_new(&path)?;
    println!(
        "Wrote your private key to {} (mode 0600; never mail it).",
        path.display()
    );
    println!("Public key:  {}", id.public());
    println!(
        "Fingerprint: {}  (tell it your opponent by another channel)",
        id.public().fingerprint()
    );
    Ok(ExitCode::SUCCESS)
}

/// A fresh game id: `peer-` and 8 random hex digits.
fn new_game_id() -> Result<String> {
    let mut b = [0u8; 4];
    getrandom::fill(&mut b).map_err(|e| anyhow::anyhow!("no random game id: {e}"))?;
    Ok(format!("peer-{}", hex::encode(b)))
}

/// `twilight new DIR --peer …` with the game's `options` (the variant flags of `new`),
/// recorded in entry 0 (DEALERLESS.md §9 "Options").
pub fn new(
    game_dir: &Path,
    args: &PeerNewArgs,
    options: &Options,
    outbox: bool,
) -> Result<ExitCode> {
    let (Some(side), Some(me), Some(opponent)) = (args.side, &args.me, &args.opponent) else {
        bail!("`new --peer` needs --as us|ussr, --me EMAIL and --opponent EMAIL");
    };
    check_peer_options(options).map_err(|e| anyhow::anyhow!("`new --peer`: {e}"))?;
    let key = key_path(&args.key);
    let id = Identity::load(&key).with_context(|| {
        format!(
            "your key {} (make one with `twilight keygen`)",
            key.display()
        )
    })?;
    let config = PeerConfig {
        game: new_game_id()?,
        side: Side::from(side),
        me: me.clone(),
        opponent: opponent.clone(),
        key,
    };
    let mut r = Replica::create_with_options(game_dir, config, options, &id)?;
    println!(
        "Created peer game {} in {}: you play the {}.",
        r.config.game,
        game_dir.display(),
        r.config.side.name()
    );
    println!("Options: {}.", options.describe());
    println!("Your fingerprint: {}", id.public().fingerprint());
    let accept = if *options == Options::default() {
        ""
    } else {
        " --accept-options"
    };
    send(
        &mut r,
        &id,
        outbox,
        &format!(
            "You are invited to a game of Twilight Struggle in peer mode (no host).\n\
             Options: {}.\n\
             Join it with:  twilight join GAME_DIR --peer --from-mail THIS_MAIL.eml{accept}\n",
            options.describe()
        ),
    )
}

/// The options entry 0 of `bundle` records, checked for peer mode.
///
/// Errors: no entry 0 in the bundle, or options peer mode cannot play.
fn options_of_invitation(bundle: &sync::Bundle) -> Result<Options> {
    let open = bundle.entries.iter().find(|e| e.seq == 0).ok_or_else(|| {
        anyhow::anyhow!(
            "the mail does not carry the game's entry 0 (its `open`): join from the opponent's \
             first mail"
        )
    })?;
    let options = match &open.body {
        twilight_pbem::peer::signed_log::Body::Open { options, .. } => {
            options.clone().unwrap_or_default()
        }
        _ => bail!("entry 0 of the mail is no `open`"),
    };
    check_peer_options(&options).map_err(|e| anyhow::anyhow!("this game cannot be joined: {e}"))?;
    Ok(options)
}

/// `twilight join DIR --peer --from-mail FILE …`.
pub fn join(game_dir: &Path, args: &PeerJoinArgs, outbox: bool) -> Result<ExitCode> {
    let Some(mail) = &args.from_mail else {
        bail!("`join --peer` needs --from-mail FILE (the opponent's first mail)");
    };
    let raw = std::fs::read(mail).with_context(|| mail.display().to_string())?;
    let bundle = sync::read_mail(&raw).with_context(|| mail.display().to_string())?;
    let options = options_of_invitation(&bundle)?;
    println!("Options: {}.", options.describe());
    if options != Options::default() && !args.accept_options {
        bail!(
            "this game is not played with the standard options; if you agree to them, join \
             again with --accept-options (nothing was written)"
        );
    }
    let key = key_path(&args.key);
    let id = Identity::load(&key).with_context(|| {
        format!(
            "your key {} (make one with `twilight keygen`)",
            key.display()
        )
    })?;
    let r = Replica::join(game_dir, &bundle, &key, &id, args.me.as_deref())?;
    let opp = r.config.side.opponent();
    println!(
        "Joined peer game {} in {}: you play the {}.",
        r.config.game,
        game_dir.display(),
        r.config.side.name()
    );
    if let Some(k) = r.chain().key_of(opp) {
        println!(
            "The {}'s fingerprint: {}  — compare it with your opponent by another channel \
             before you play.",
            opp.name(),
            k.fingerprint()
        );
    }
    println!("Your fingerprint: {}", id.public().fingerprint());
    // The game starts with the join: the first moves this side's software owes (the USSR's
    // first shuffle pass) go with the join's mail.
    let mut f = twilight_pbem::peer::folder::PeerFolder::from_replica(r)?;
    let sent = send(&mut f.replica, &id, outbox, "I joined the game.\n")?;
    if let Some(g) = &f.game {
        show(g);
    }
    Ok(sent)
}

/// The readable text of a peer mail.
fn mail_text(r: &Replica, id: &Identity, bundle: &sync::Bundle, note: &str) -> String {
    let mut t = format!(
        "Twilight Struggle, peer game {} — from the {} to the {}.\n\n{note}\n",
        r.config.game,
        r.config.side.name(),
        r.config.side.opponent().name()
    );
    match (bundle.entries.first(), bundle.entries.last()) {
        (Some(a), Some(b)) => t.push_str(&format!(
            "Attached: signed {} of the shared log.\n",
            twilight_pbem::text::wording::entries(a.seq, b.seq)
        )),
        _ => t.push_str("Attached: an acknowledgement only (no new entries).\n"),
    }
    t.push_str(&format!(
        "I hold {} (head {}).\nMy key's fingerprint: {}\n\n\
         Take this mail in with `twilight peer inbox GAME_DIR MAILDIR_OR_FILE`; the attachment \
         is for the program, not for you.\n",
        twilight_pbem::text::wording::first_entries(bundle.ack.holds),
        &bundle.ack.head.to_hex()[..16],
        id.public().fingerprint()
    ));
    t
}

/// Mails the outgoing bundle; exit 3 if sending failed (the entries stand).
fn send(r: &mut Replica, id: &Identity, outbox: bool, note: &str) -> Result<ExitCode> {
    let bundle = r.outgoing(id);
    let text = mail_text(r, id, &bundle, note);
    let env = Envelope {
        from: &r.config.me,
        to: &r.config.opponent,
        text,
    };
    let message = sync::compose(&env, &bundle).map_err(|e| anyhow::anyhow!("{e}"))?;
    let transport = Transport::choose(&r.dir().join("outbox"), outbox)?;
    match transport.deliver(&message) {
        Ok(to) => {
            r.note_sent()?;
            println!(
                "mailed {}: {} ({to})",
                r.config.opponent,
                twilight_pbem::text::wording::count(
                    bundle.entries.len() as u64,
                    "entry",
                    "entries"
                )
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!(
                "error: the entries stand, but the mail was not sent via {}: {e}; `twilight peer \
                 send {}` re-sends",
                transport.describe(),
                r.dir().display()
            );
            Ok(ExitCode::from(3))
        }
    }
}

/// The ordinary (moderated) command that does what `twilight peer NAME` does, for a game
/// folder that is not a peer game.
fn moderated_equivalent(cmd: &PeerCommand, dir: &str) -> String {
    match cmd {
        PeerCommand::Inbox(_) => {
            format!(
                "`twilight inbox --games {} MAILDIR` (the moderator's mail loop)",
                parent_of(dir)
            )
        }
        PeerCommand::Send(_) => format!("`twilight mail {dir}` (mail the prompts again)"),
        PeerCommand::Status(_) => format!("`twilight status {dir}`"),
        PeerCommand::View(_) => format!("`twilight view {dir} --as us|ussr|public`"),
        PeerCommand::Moves(_) => format!("`twilight moves {dir} --as us|ussr`"),
        PeerCommand::Play(_) => format!("`twilight play {dir} --as us|ussr \"MOVE\"`"),
    }
}

/// The folder holding the game folder `dir` (`.` for a bare name).
fn parent_of(dir: &str) -> String {
    match std::path::Path::new(dir).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.display().to_string(),
        _ => ".".into(),
    }
}

/// Refuses a `peer` command on a folder that is not a peer game: an ordinary moderated game
/// (its `log.yaml` there, no peer configuration) is named as such, with the command to use
/// instead; a folder that is no game at all is named too. Exit status 2 (an error).
fn require_peer_folder(cmd: &PeerCommand) -> Result<()> {
    let dir = match cmd {
        PeerCommand::Inbox(Deferred(PeerInboxArgs { game_dir, .. }))
        | PeerCommand::Send(Deferred(PeerSendArgs { game_dir, .. }))
        | PeerCommand::Status(Deferred(PeerStatusArgs { game_dir, .. }))
        | PeerCommand::View(Deferred(PeerViewArgs { game_dir, .. }))
        | PeerCommand::Moves(Deferred(PeerMovesArgs { game_dir }))
        | PeerCommand::Play(Deferred(PeerPlayArgs { game_dir, .. })) => game_dir,
    };
    if replica::is_peer_folder(dir) {
        return Ok(());
    }
    let shown = dir.display().to_string();
    if dir.join("log.yaml").exists() {
        bail!(
            "{shown} is an ordinary (moderated) game folder, not a peer game: `twilight peer …` \
             commands work only on a folder made by `twilight new --peer` or `twilight join \
             --peer`; for this game use {}",
            moderated_equivalent(cmd, &shown)
        );
    }
    if !dir.is_dir() {
        bail!(
            "{shown} is not a peer game folder: there is no folder there (a peer game is made by \
             `twilight new --peer` or `twilight join --peer`)"
        );
    }
    bail!(
        "{shown} is not a peer game folder: it holds no {} (a peer game is made by `twilight new \
         --peer` or `twilight join --peer`)",
        replica::CONFIG_FILE
    )
}

/// `twilight peer …`.
pub fn run(cmd: &PeerCommand) -> Result<ExitCode> {
    require_peer_folder(cmd)?;
    match cmd {
        PeerCommand::Inbox(Deferred(PeerInboxArgs {
            game_dir,
            sources,
            reply,
            outbox,
        })) => inbox(game_dir, sources, *reply, *outbox),
        PeerCommand::Send(Deferred(PeerSendArgs { game_dir, outbox })) => {
            let mut r = Replica::open(game_dir)?;
            let id = r.identity()?;
            send(&mut r, &id, *outbox, "")
        }
        PeerCommand::Status(Deferred(PeerStatusArgs { game_dir, format })) => {
            status(game_dir, *format)
        }
        PeerCommand::View(Deferred(PeerViewArgs {
            game_dir,
            format,
            out,
        })) => view_cmd(game_dir, *format, out.as_deref()),
        PeerCommand::Moves(Deferred(PeerMovesArgs { game_dir })) => moves(game_dir),
        PeerCommand::Play(Deferred(PeerPlayArgs {
            game_dir,
            words,
            outbox,
        })) => play(game_dir, &words.join(" "), *outbox),
    }
}

/// What the folder's game owes now, in words.
fn owed_text(g: &twilight_pbem::peer::play::PeerGame) -> String {
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
fn mine_to_decide(g: &twilight_pbem::peer::play::PeerGame) -> bool {
    matches!(g.owed(), twilight_pbem::peer::play::Owed::Decide(s) if s == g.side())
}

/// Prints what is owed and, when it is this player's decision, the hand, the prompt and every
/// legal move (each one `peer play` accepts).
fn show(g: &twilight_pbem::peer::play::PeerGame) {
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

/// The heading of the news: what happened since the player's last decision.
pub const NEWS_HEADING: &str = "== What happened since your last decision ==";

/// Prints what happened since the player's last decision, then the board as the player may
/// see it ([`twilight_pbem::peer::view`]), under the moderated mail's headings.
fn show_board(g: &twilight_pbem::peer::play::PeerGame) {
    use twilight_pbem::peer::view::{board_text, news_text};
    println!("{NEWS_HEADING}");
    print!("{}", news_text(g));
    println!();
    println!("{}", twilight_pbem::mail::outbound::BOARD_HEADING);
    println!("{}", board_text(g));
}

fn moves(game_dir: &Path) -> Result<ExitCode> {
    use twilight_pbem::peer::folder::PeerFolder;
    let f = PeerFolder::open(game_dir)?;
    let Some(g) = &f.game else {
        println!("The opponent has not joined yet.");
        return Ok(ExitCode::SUCCESS);
    };
    show(g);
    if f.replica.unmailed() && !mine_to_decide(g) {
        println!(
            "Your software's moves are not mailed yet: `twilight peer send {}` mails them.",
            game_dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Mails what the folder wrote when the next move is not this player's decision (DEALERLESS
/// §9: a player's software mails when the next move is the opponent's). Returns the exit code
/// of sending, `None` if nothing was due.
fn mail_if_due(
    f: &mut twilight_pbem::peer::folder::PeerFolder,
    outbox: bool,
    note: &str,
) -> Result<Option<ExitCode>> {
    let due = f.game.as_ref().is_some_and(|g| !mine_to_decide(g)) && f.replica.unmailed();
    if !due {
        return Ok(None);
    }
    let id = f.replica.identity()?;
    send(&mut f.replica, &id, outbox, note).map(Some)
}

fn play(game_dir: &Path, line: &str, outbox: bool) -> Result<ExitCode> {
    use twilight_pbem::peer::folder::PeerFolder;
    let mut f = PeerFolder::open(game_dir)?;
    let Some(prompt) = f.game.as_ref().and_then(|g| g.prompt().cloned()) else {
        bail!(
            "no decision of yours is owed now: {}",
            f.game
                .as_ref()
                .map_or("the opponent has not joined".into(), owed_text)
        );
    };
    // A move refused (unreadable, not an answer, illegal) exits 1 with nothing changed, as the
    // README's exit-code table says; file and signature errors stay errors (exit 2).
    let refused = |why: String| {
        eprintln!("twilight: refused: {why} (nothing was written)");
        Ok(ExitCode::from(1))
    };
    let parsed = match twilight_pbem::text::notation::parse_line(line) {
        Ok(p) => p,
        Err(e) => return refused(e.to_string()),
    };
    let [mv] = parsed.as_slice() else {
        return refused(format!("give one move (this prompt: {})", prompt.text));
    };
    let answer = match twilight_pbem::text::notation::resolve(mv, &prompt) {
        Ok(a) => a,
        Err(e) => return refused(e.to_string()),
    };
    match f.decide(answer) {
        Ok(()) => {}
        Err(twilight_pbem::peer::folder::FolderError::Log(why)) => return refused(why),
        Err(e) => return Err(e.into()),
    }
    let sent = mail_if_due(&mut f, outbox, "My move is in the attached entries.")?;
    if let Some(g) = &f.game {
        println!("{NEWS_HEADING}");
        print!("{}", twilight_pbem::peer::view::news_text(g));
        show(g);
        if sent.is_none() && mine_to_decide(g) {
            println!("(Nothing mailed yet: your moves go with your next decision.)");
        }
    }
    Ok(sent.unwrap_or(ExitCode::SUCCESS))
}

/// Prints a move of the opponent found wrong, naming its entry and the party at fault.
fn report_fault(f: &twilight_pbem::peer::play::GameFault) {
    eprintln!(
        "FINDING entry {}: bad move: {} — at fault: the {}; the game stops here (`twilight \
         verify` names it too)",
        f.entry + 2,
        f.why,
        f.party.name()
    );
}

fn inbox(game_dir: &Path, sources: &[PathBuf], reply: bool, outbox: bool) -> Result<ExitCode> {
    use twilight_pbem::peer::folder::{FolderError, PeerFolder};
    let r = Replica::open(game_dir)?;
    let mut f = match PeerFolder::from_replica(r) {
        Ok(f) => f,
        Err(FolderError::Fault(fault)) => {
            report_fault(&fault);
            return Ok(ExitCode::from(EXIT_BAD_MOVE));
        }
        Err(e) => return Err(e.into()),
    };
    let mut code = 0u8;
    for mail in sync::list_mails(sources)? {
        let raw = std::fs::read(&mail).with_context(|| mail.display().to_string())?;
        let name = mail.display();
        let bundle = match sync::read_mail(&raw) {
            Ok(b) if b.game == f.replica.config.game => b,
            Ok(b) => {
                println!(
                    "{name}: for game {}, not this one; left where it is",
                    b.game
                );
                continue;
            }
            Err(e) => {
                println!("{name}: refused: {e}; left where it is");
                first(&mut code, EXIT_BAD_MAIL);
                continue;
            }
        };
        match f.take_in(&bundle) {
            Ok(got) => {
                println!(
                    "{name}: {} appended{}, {} duplicate, {} waiting for earlier entries{}",
                    got.appended.len(),
                    match (got.appended.first(), got.appended.last()) {
                        (Some(a), Some(b)) => {
                            format!(" ({})", twilight_pbem::text::wording::entries(*a, *b))
                        }
                        _ => String::new(),
                    },
                    got.duplicates,
                    got.buffered.len(),
                    if got.ack_taken {
                        format!(
                            "; the {} acknowledges {}",
                            bundle.from.name(),
                            twilight_pbem::text::wording::first_entries(bundle.ack.holds)
                        )
                    } else {
                        String::new()
                    }
                );
                for f in &got.findings {
                    eprintln!("{name}: FINDING {f}");
                    first(
                        &mut code,
                        match f.kind {
                            FindingKind::Fork => EXIT_FORK,
                            FindingKind::BadSignature | FindingKind::BadLink => EXIT_BAD_ENTRY,
                            FindingKind::AckMismatch => EXIT_ACK,
                            FindingKind::BadMove | FindingKind::NoFinalReveal => EXIT_BAD_MOVE,
                        },
                    );
                }
                sync::mark_read(&mail).with_context(|| format!("{name}: mark as read"))?;
            }
            Err(FolderError::Replica(replica::ReplicaError::Bundle(BundleError::Stopped(why)))) => {
                eprintln!("{name}: not taken in: {why}");
                first(&mut code, EXIT_FORK);
            }
            Err(FolderError::Replica(replica::ReplicaError::Bundle(
                e @ BundleError::NotSigned { .. },
            ))) => {
                // Kept in the Maildir (cur/), never deleted; nothing of it in the game.
                eprintln!("{name}: {e}; the mail is marked read, the game unchanged");
                sync::mark_read(&mail).with_context(|| format!("{name}: mark as read"))?;
                first(&mut code, EXIT_BAD_ENTRY);
            }
            Err(FolderError::Replica(replica::ReplicaError::Bundle(e))) => {
                println!("{name}: refused: {e}; left where it is");
                first(&mut code, EXIT_BAD_MAIL);
            }
            Err(FolderError::Fault(fault)) => {
                // The mail's entries are in the signed log; its move is wrong: the game stops.
                sync::mark_read(&mail).with_context(|| format!("{name}: mark as read"))?;
                report_fault(&fault);
                return Ok(ExitCode::from(EXIT_BAD_MOVE));
            }
            Err(e) => return Err(e.into()),
        }
    }
    let stopped = !f.replica.sync.findings.is_empty();
    let mut sent = None;
    if !stopped {
        sent = mail_if_due(&mut f, outbox, "My moves are in the attached entries.")?;
        if reply && sent.is_none() {
            let id = f.replica.identity()?;
            sent = Some(send(
                &mut f.replica,
                &id,
                outbox,
                "Received; this is my acknowledgement.",
            )?);
        }
    }
    match &f.game {
        Some(g) => {
            show_board(g);
            show(g);
            println!("{}", picture_line(game_dir));
        }
        None => println!("The opponent has not joined yet."),
    }
    match sent {
        Some(c) if c != ExitCode::SUCCESS && code == 0 => Ok(c),
        _ => Ok(ExitCode::from(code)),
    }
}

/// The game-level check of a replica folder ([`game_check::check`]), with the holder's key
/// if it can be read.
fn game_check_of(
    dir: &Path,
    config: &PeerConfig,
    chain: &twilight_pbem::peer::signed_log::Chain,
) -> twilight_pbem::peer::game_check::GameCheck {
    let seed = Identity::load(&config.key)
        .ok()
        .map(|id| twilight_pbem::peer::folder::game_seed(&id, &config.game));
    if seed.is_none() {
        eprintln!(
            "{}: the key file {} cannot be read; only a game with both seeds revealed is checked",
            dir.display(),
            config.key.display()
        );
    }
    twilight_pbem::peer::game_check::check(chain, config.side, seed)
}

/// Prints `v` as YAML or JSON.
fn print_structured(format: PeerFormat, v: &serde_json::Value) -> Result<()> {
    match format {
        PeerFormat::Yaml => print!("{}", serde_yaml::to_string(v)?),
        _ => println!("{}", serde_json::to_string_pretty(v)?),
    }
    Ok(())
}

/// The replica's game rebuilt without writing anything
/// ([`twilight_pbem::peer::folder::rebuild_replica`]); `Ok(None)` before the join is in.
fn game_read_only(r: &Replica) -> Result<Option<twilight_pbem::peer::play::PeerGame>> {
    let id = r.identity()?;
    Ok(twilight_pbem::peer::folder::rebuild_replica(r, &id)?.map(|(g, _)| g))
}

fn status(game_dir: &Path, format: PeerFormat) -> Result<ExitCode> {
    let r = Replica::open(game_dir)?;
    let c = r.chain();
    let check = game_check_of(game_dir, &r.config, c);
    let game = game_read_only(&r);
    if format != PeerFormat::Text {
        use serde_json::json;
        let keys: serde_json::Map<String, serde_json::Value> = Side::BOTH
            .into_iter()
            .map(|s| {
                (
                    s.name().to_string(),
                    json!(c.key_of(s).map(|k| k.fingerprint())),
                )
            })
            .collect();
        let (board, error) = match &game {
            Ok(Some(g)) => (Some(g), None),
            Ok(None) => (None, None),
            Err(e) => (None, Some(format!("{e:#}"))),
        };
        let v = json!({
            "game": r.config.game,
            "side": r.config.side.name(),
            "me": r.config.me,
            "opponent": r.config.opponent,
            "fingerprints": keys,
            "entries_held": c.len(),
            "head": c.head().to_hex(),
            "acknowledged_by_opponent": r.sync.unacknowledged_from(),
            "waiting_for_a_gap": r.sync.pending.len(),
            "standing": check.standing.to_string(),
            "findings": r.sync.findings.iter().chain(&check.findings).map(|f| f.to_string()).collect::<Vec<_>>(),
            "joined": board.is_some(),
            "owed": board.map(owed_text),
            "your_decision": board.is_some_and(mine_to_decide),
            "news": board.map(twilight_pbem::peer::view::news),
            "view": board.map(twilight_pbem::peer::view::player_view),
            "board_error": error,
        });
        print_structured(format, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "Peer game {}: you play the {} ({}), opponent {}.",
        r.config.game,
        r.config.side.name(),
        r.config.me,
        r.config.opponent
    );
    for side in Side::BOTH {
        match c.key_of(side) {
            Some(k) => println!("  {} key fingerprint: {}", side.name(), k.fingerprint()),
            None => println!("  {} key: not yet known (the join is not in)", side.name()),
        }
    }
    println!(
        "  entries held: {} (head {}); acknowledged by the opponent: {}; waiting for a gap: {}",
        c.len(),
        &c.head().to_hex()[..16],
        r.sync.unacknowledged_from(),
        r.sync.pending.len()
    );
    println!("  the game: {}", check.standing);
    for f in r.sync.findings.iter().chain(&check.findings) {
        println!("  FINDING {f}");
    }
    match &game {
        Ok(Some(g)) => {
            println!();
            show_board(g);
            println!("{}", owed_text(g));
            println!("{}", picture_line(game_dir));
        }
        Ok(None) => println!("The opponent has not joined yet."),
        Err(e) => println!("The board cannot be shown: {e:#}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `twilight peer view`: the player's view ([`twilight_pbem::peer::view::player_view`]) as
/// text, YAML, JSON or the map picture.
fn view_cmd(game_dir: &Path, format: ViewFormat, out: Option<&Path>) -> Result<ExitCode> {
    use twilight_pbem::peer::view::{board_text, player_view};
    let r = Replica::open(game_dir)?;
    let Some(g) = game_read_only(&r)? else {
        bail!("the opponent has not joined yet: there is no board");
    };
    let v = player_view(&g);
    let bytes = match format {
        ViewFormat::Text => board_text(&g).into_bytes(),
        ViewFormat::Yaml => serde_yaml::to_string(&v)?.into_bytes(),
        ViewFormat::Json => format!("{}\n", serde_json::to_string_pretty(&v)?).into_bytes(),
        ViewFormat::Svg | ViewFormat::Png => {
            let l = twilight_pbem::picture::Layout::standard();
            let svg = twilight_pbem::picture::svg::board_svg_with(l, &v, &[], None);
            match format {
                ViewFormat::Png => crate::picture_cli::png(&svg)?,
                _ => svg.into_bytes(),
            }
        }
    };
    match out {
        Some(p) => {
            std::fs::write(p, &bytes).with_context(|| format!("cannot write {}", p.display()))?
        }
        None => match std::io::Write::write_all(&mut std::io::stdout(), &bytes) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        },
    }
    Ok(ExitCode::SUCCESS)
}

/// `twilight verify` on peer folders: one replica, or two (one per player) merged. Reports
/// every finding of the signed logs ([`dispute::verify`]), the findings `peer inbox` kept in
/// `peer-sync.yaml` (so `peer status` and `verify` say the same), and the game-level check of
/// each replica ([`twilight_pbem::peer::game_check::check`]).
///
/// `format` YAML or JSON: the same as fields — `folders` (each `path`, `side`, `entries`,
/// `standing`), `ok`, and `findings` (each `seq`, `kind`, `at_fault`, `message`, `text` as the
/// text output's line, `evidence` the names of the entries that prove it).
pub fn verify(paths: &[PathBuf], format: PeerFormat) -> Result<ExitCode> {
    if paths.len() > 2 {
        bail!("verify takes one peer folder, or the two players' folders of one game");
    }
    let mut views = Vec::new();
    let mut kept = Vec::new();
    let mut configs = Vec::new();
    for p in paths {
        if !replica::is_peer_folder(p) {
            bail!(
                "{}: not a peer game folder (verify a peer folder alone or with the other \
                 player's)",
                p.display()
            );
        }
        let config = replica::read_config(p)?;
        let (entries, _, torn) = replica::read_log(p)?;
        if torn {
            eprintln!(
                "{}: the last document of the log is torn (a crash); it is not counted",
                p.display()
            );
        }
        let sync = replica::read_sync(p)?;
        kept.extend(sync.findings);
        views.push(ReplicaView {
            label: p.display().to_string(),
            holder: config.side,
            entries,
            ack_from_opponent: sync.ack_from_opponent,
        });
        configs.push(config);
    }
    if let [a, b] = views.as_slice() {
        if a.holder == b.holder {
            bail!("both folders are the {}'s replica", a.holder.name());
        }
    }
    let mut findings = dispute::verify(&views);
    let mut folders = Vec::new();
    for (v, (p, config)) in views.iter().zip(paths.iter().zip(&configs)) {
        let chain = dispute::replay(&v.entries, v.holder, &v.label).chain;
        let check = game_check_of(p, config, &chain);
        folders.push(serde_json::json!({
            "path": v.label,
            "side": v.holder.name(),
            "entries": v.entries.len(),
            "standing": check.standing.to_string(),
        }));
        if format == PeerFormat::Text {
            println!(
                "{}: {} ({}); the game: {}",
                v.label,
                twilight_pbem::text::wording::count(v.entries.len() as u64, "entry", "entries"),
                v.holder.name(),
                check.standing
            );
        }
        findings.extend(check.findings);
    }
    findings.extend(kept);
    findings.sort_by_key(|f| f.seq);
    findings.dedup_by(|a, b| (a.seq, a.kind, a.at_fault) == (b.seq, b.kind, b.at_fault));
    let code = if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    if format != PeerFormat::Text {
        let v = serde_json::json!({
            "folders": folders,
            "ok": findings.is_empty(),
            "findings": findings.iter().map(|f| serde_json::json!({
                "seq": f.seq,
                "kind": f.kind.to_string(),
                "at_fault": f.at_fault.map(|s| s.name()),
                "message": f.message,
                "text": f.to_string(),
                "evidence": f.evidence.iter().map(|e| e.name()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        print_structured(format, &v)?;
        return Ok(code);
    }
    if findings.is_empty() {
        println!("ok: every entry is signed by its author and chained; the replicas agree");
        return Ok(ExitCode::SUCCESS);
    }
    for f in &findings {
        println!("FINDING {f}");
        for e in &f.evidence {
            println!("  evidence: {}", e.name());
        }
    }
    Ok(ExitCode::from(1))
}

/// Keeps the exit code of the first problem.
fn first(code: &mut u8, c: u8) {
    if *code == 0 {
        *code = c;
    }
}

//! Chance nobody can steer and dice anyone can check each turn (FAIRNESS.md §2–3).

use chrono::{TimeZone, Utc};
use twilight_pbem::archive;
use twilight_pbem::chance::fairness;
use twilight_pbem::engine::selfplay::{record_game, Policy};
use twilight_pbem::log::{Log, Payload};
use twilight_pbem::session::Session;

fn at(hour: u32, nanos: u32) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, hour, 0, 0).unwrap()
        + chrono::Duration::nanoseconds(nanos.into())
}

/// Every payload of the log except the entry's place (`seq`, `at`, `prev`): the chance
/// records, commitments, dice keys and decisions, as YAML.
fn payloads(dir: &std::path::Path) -> Vec<String> {
    let log = Log::open(dir.join("log.yaml")).unwrap();
    log.entries()
        .iter()
        .map(|e| {
            serde_yaml::to_string(
                &serde_yaml::with::singleton_map::serialize(
                    &e.entry.payload,
                    serde_yaml::value::Serializer,
                )
                .unwrap(),
            )
            .unwrap()
        })
        .collect()
}

#[test]
fn two_recordings_of_one_seeded_game_have_identical_chance_records() {
    // The same seed, nonces and decisions, recorded at two different times (different
    // timestamps, so different entry hashes): every die, deal, commitment and dice key is the
    // same, byte for byte (FAIRNESS.md §3: the timestamps feed nothing).
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let seed = Some(fairness::test_seed(5));
    let made_a = record_game(&a, seed, 5, Policy::Careful, Some(150), at(9, 1)).unwrap();
    let made_b = record_game(&b, seed, 5, Policy::Careful, Some(150), at(17, 987_654_321)).unwrap();
    assert_eq!(made_a, made_b);
    let (pa, pb) = (payloads(&a), payloads(&b));
    assert_eq!(pa.len(), pb.len());
    assert_eq!(pa, pb);
    let chance = pa.iter().filter(|p| p.starts_with("chance:")).count();
    let keys = pa.iter().filter(|p| p.starts_with("dice_key:")).count();
    assert!(chance > 10, "{chance} chance records");
    assert!(keys >= 1, "{keys} dice keys");
    // The logs themselves differ (timestamps, hence hashes): the chance does not depend on them.
    assert_ne!(
        std::fs::read(a.join("log.yaml")).unwrap(),
        std::fs::read(b.join("log.yaml")).unwrap()
    );
}

#[test]
fn a_public_verify_mid_game_checks_the_dice_of_finished_turns() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    record_game(
        &dir,
        Some(fairness::test_seed(3)),
        3,
        Policy::Careful,
        Some(150),
        at(9, 0),
    )
    .unwrap();
    let s = Session::open_public(&dir).unwrap();
    assert!(s.findings.is_empty(), "{:?}", s.findings);
    assert!(s.game().unwrap().outcome().is_none(), "still in progress");
    assert!(!s.is_revealed());
    let turn = u32::from(s.game().unwrap().state().turn);
    assert!(turn >= 2, "the game reached turn {turn}");
    assert_eq!(s.dice_checked(), Some(turn - 1));
    let report = archive::verify_game(&dir, None);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let line = report.summary();
    let want = if turn == 2 {
        "dice checked: turn 1".to_string()
    } else {
        format!("dice checked: turns 1–{}", turn - 1)
    };
    assert!(line.contains(&want), "{line}");
    assert!(line.contains("test seed: not a fair game"), "{line}");
}

#[test]
fn before_a_turn_ends_no_dice_are_checked_yet() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    record_game(
        &dir,
        Some(fairness::test_seed(3)),
        3,
        Policy::Careful,
        Some(10),
        at(9, 0),
    )
    .unwrap();
    let report = archive::verify_game(&dir, None);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(
        report.summary().contains("dice checked: none yet"),
        "{}",
        report.summary()
    );
}

/// Rewrites the first `die: N` chance record of turn 1 (a dice key is published for it) to
/// another roll, re-chaining the hashes after it as a forger would.
fn forge_first_die(dir: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    let Some(pos) = text.find("      die: ") else {
        return false;
    };
    let digit = pos + "      die: ".len();
    let old = text.as_bytes()[digit];
    let new = if old == b'6' { b'1' } else { old + 1 };
    let mut bytes = text.into_bytes();
    bytes[digit] = new;
    let out = rechain(&String::from_utf8(bytes).unwrap());
    std::fs::write(dir.join("log.yaml"), out).unwrap();
    true
}

#[test]
fn a_forged_roll_of_a_finished_turn_is_caught_without_the_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    record_game(
        &dir,
        Some(fairness::test_seed(3)),
        3,
        Policy::Careful,
        Some(150),
        at(9, 0),
    )
    .unwrap();
    std::fs::remove_file(dir.join("secret.yaml")).unwrap();
    let s = Session::open_public(&dir).unwrap();
    assert!(!s.is_revealed() && s.dice_checked().is_some());
    assert!(forge_first_die(&dir), "the game has a die roll");
    let report = archive::verify_game(&dir, None);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.contains("are not the dice")),
        "{:?}",
        report.findings
    );
}

#[test]
fn a_dice_key_off_the_committed_chain_is_a_finding() {
    let mut ledger = twilight_pbem::chance::sealed_chance::DiceLedger {
        chain_end: Some(fairness::dice_chain_end(&[9; 32])),
        ..Default::default()
    };
    assert_eq!(ledger.publish(7, 1, fairness::dice_key(&[9; 32], 1)), None);
    let wrong = ledger.publish(8, 2, fairness::dice_key(&[8; 32], 2));
    assert!(wrong
        .unwrap()
        .contains("does not hash to the dice_chain_end"));
    let twice = ledger.publish(9, 1, fairness::dice_key(&[9; 32], 1));
    assert!(twice.unwrap().contains("a second dice key"));
}

#[test]
fn new_takes_a_real_seed_and_commits_the_dice_chain() {
    let tmp = tempfile::tempdir().unwrap();
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut seeds = Vec::new();
    for name in ["a", "b"] {
        let dir = tmp.path().join(name);
        Session::create(&dir, &Default::default(), players.clone(), at(9, 0)).unwrap();
        let secret = std::fs::read_to_string(dir.join("secret.yaml")).unwrap();
        let log = Log::open(dir.join("log.yaml")).unwrap();
        let Payload::Create {
            test_seed,
            dice_chain_end,
            ..
        } = &log.entries()[0].entry.payload
        else {
            panic!("create first")
        };
        assert!(!test_seed);
        let seed: twilight_pbem::log::Hex32 = secret
            .trim()
            .strip_prefix("seed: ")
            .unwrap()
            .trim_matches('\'')
            .parse()
            .unwrap();
        assert_eq!(
            dice_chain_end.unwrap().as_bytes(),
            &fairness::dice_chain_end(seed.as_bytes())
        );
        // Not a number followed by zeros: at most a few zero bytes by chance.
        assert!(seed.as_bytes().iter().filter(|&&b| b == 0).count() < 8);
        seeds.push(seed);
    }
    assert_ne!(seeds[0], seeds[1]);
}

#[test]
fn a_swapped_pending_headline_in_secret_yaml_is_refused() {
    // The moderator edits the sealed first headline in secret.yaml to another card of that
    // hand: the card no longer matches the commitment logged for it, and the game refuses to
    // go on rather than resolve the swapped card (FAIRNESS.md §9).
    use twilight_pbem::data::Side;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s =
        Session::create_with_seed(&dir, &Default::default(), players, [7; 32], at(9, 0)).unwrap();
    s.join(Side::Ussr, "n1", at(9, 0)).unwrap();
    s.join(Side::Us, "n2", at(9, 0)).unwrap();
    s.play(
        Side::Ussr,
        &["influence Poland 4, East Germany 1, Hungary 1".into()],
        at(9, 0),
    )
    .unwrap();
    s.play(
        Side::Us,
        &[
            "influence West Germany 4, Italy 2, France 1".into(),
            "influence West Germany 1, Iran 1".into(),
        ],
        at(9, 0),
    )
    .unwrap();
    let hand: Vec<_> = s.game().unwrap().state().cards.hands[Side::Ussr]
        .iter()
        .copied()
        .filter(|c| !c.is_scoring())
        .collect();
    s.play(
        Side::Ussr,
        &[format!("headline {}", hand[0] as u8)],
        at(9, 0),
    )
    .unwrap();
    let secret = std::fs::read_to_string(dir.join("secret.yaml")).unwrap();
    let want = format!("card: {}", serde_yaml::to_string(&hand[0]).unwrap().trim());
    assert!(secret.contains(&want), "{secret}");
    let swapped = secret.replace(
        &want,
        &format!("card: {}", serde_yaml::to_string(&hand[1]).unwrap().trim()),
    );
    std::fs::write(dir.join("secret.yaml"), swapped).unwrap();
    let err = Session::open(&dir).err().expect("refused").to_string();
    assert!(
        err.contains("is not the card its logged commitment seals"),
        "{err}"
    );
}

#[test]
fn the_engine_deals_as_the_spec_says() {
    // FAIRNESS.md §3.5: the opening deck (Early War cards but the China Card, with 104–106)
    // in ascending order, shuffled by the deck key in resolution 0, dealt from the top (the
    // permutation's last position), USSR first, alternating, 8 each.
    use twilight_pbem::data::Side;
    let seed: [u8; 32] = std::array::from_fn(|i| i as u8);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s =
        Session::create_with_seed(&dir, &Default::default(), players, seed, at(9, 0)).unwrap();
    s.join(Side::Ussr, "boris", at(9, 0)).unwrap();
    s.join(Side::Us, "alice", at(9, 0)).unwrap();
    let cards: Vec<u8> = (1..=35).filter(|&c| c != 6).chain(103..=106).collect();
    let perm = fairness::shuffle(
        &fairness::deck_key(&seed),
        &fairness::nonce_mix("boris", "alice"),
        "shuffle",
        0,
        0,
        cards.len(),
    );
    let mut deck: Vec<u8> = perm.iter().map(|&i| cards[i]).collect();
    let mut want = [Vec::new(), Vec::new()];
    for _ in 0..8 {
        for hand in &mut want {
            hand.push(deck.pop().unwrap());
        }
    }
    let game = s.game().unwrap();
    for (i, side) in [Side::Ussr, Side::Us].into_iter().enumerate() {
        let mut got: Vec<u8> = game.state().cards.hands[side]
            .iter()
            .map(|c| *c as u8)
            .collect();
        got.sort_unstable();
        want[i].sort_unstable();
        assert_eq!(got, want[i], "{side}");
    }
    // And the page's own vector holds these hands.
    let page = include_str!("../schemas/FAIRNESS.md");
    let vector = page
        .lines()
        .find(|l| l.starts_with("opening_deal ") && l.contains(",104,105,106 -> "))
        .expect("the opening_deal vector with the optional cards");
    let list = |v: &[u8]| {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let hands = format!("-> ussr={} us={} ", list(&want[0]), list(&want[1]));
    assert!(vector.contains(&hands), "{vector}\n{hands}");
    let mut rest: Vec<u8> = game.state().cards.deck.iter().map(|c| *c as u8).collect();
    assert_eq!(rest.len(), deck.len());
    rest.reverse();
    deck.reverse();
    assert_eq!(rest, deck, "the draw deck, top first");
}

#[test]
fn a_prompt_carries_the_players_hand_commitment_digest_salt_and_seq() {
    // FAIRNESS.md §9: from the prompt alone, the player checks SHA-256(salt ‖ hand) equals
    // the digest, and that the digest is the one logged at that seq.
    use twilight_pbem::data::Side;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s =
        Session::create_with_seed(&dir, &Default::default(), players, [4; 32], at(9, 0)).unwrap();
    s.join(Side::Ussr, "n1", at(9, 0)).unwrap();
    s.join(Side::Us, "n2", at(9, 0)).unwrap();
    assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .args(["mail", dir.to_str().unwrap(), "--outbox"])
        .assert()
        .success();
    let mail = std::fs::read_dir(dir.join("outbox"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .find(|raw| String::from_utf8_lossy(raw).contains("To: ussr@example.org"))
        .expect("a prompt to the USSR");
    let msg = mail_parser::MessageParser::default().parse(&mail).unwrap();
    let body = msg.body_text(0).unwrap().to_string();
    let field = |name: &str| {
        body.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no `{name}` in\n{body}"))
            .trim()
            .to_string()
    };
    let seq: u64 = field("Your hand commitment: log entry ").parse().unwrap();
    let digest = field("Your hand digest: ");
    let salt: twilight_pbem::log::Hex32 = field("Your hand salt: ").parse().unwrap();
    let game = s.game().unwrap();
    let hand: Vec<u8> = game.state().cards.hands[Side::Ussr]
        .iter()
        .map(|c| *c as u8)
        .collect();
    let want = fairness::commitment(salt.as_bytes(), &fairness::canonical_hand(&hand));
    assert_eq!(digest, hex::encode(want));
    let log = Log::open(dir.join("log.yaml")).unwrap();
    let Payload::Commitment { digest: logged, .. } = &log.entries()[seq as usize].entry.payload
    else {
        panic!("entry {seq} is a commitment")
    };
    assert_eq!(logged.to_hex(), digest);
}

/// Recomputes every `prev` of a log's text after an edit, as a forger would.
fn rechain(text: &str) -> String {
    let mut out = String::new();
    let mut prev = "0".repeat(64);
    for d in text.split_inclusive("...\n") {
        let i = d.find("prev: ").expect("a prev line");
        let end = i + d[i..].find('\n').unwrap();
        let fixed = format!("{}prev: '{}'{}", &d[..i], prev, &d[end..]);
        prev = twilight_pbem::log::entry_hash(fixed.as_bytes()).to_hex();
        out.push_str(&fixed);
    }
    out
}

#[test]
fn re_stamping_the_bundled_complete_game_changes_no_roll() {
    // A host's try at steering chance: re-stamp entries (and re-chain the hashes after them) to
    // move a roll. Under FAIRNESS v2 the timestamps feed nothing: the re-stamped log still
    // verifies in full, with exactly the same chance records — the host gained no choice.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/example-complete");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("example-complete");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(src.join("log.yaml")).unwrap();
    let mut n = 0u32;
    let restamped: String = text
        .split_inclusive('\n')
        .map(|l| match l.strip_prefix("at: ") {
            Some(_) => {
                n += 1;
                format!("at: 2027-01-01T00:00:{:02}.{n:09}Z\n", n % 60)
            }
            None => l.to_string(),
        })
        .collect();
    std::fs::write(dir.join("log.yaml"), rechain(&restamped)).unwrap();
    let report = archive::verify_game(&dir, None);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.mode, Some(twilight_pbem::session::Mode::Full));
    assert_eq!(report.dice_checked, Some(Some(10)));
    assert_eq!(payloads(&src), payloads(&dir));
    assert_ne!(
        std::fs::read(src.join("log.yaml")).unwrap(),
        std::fs::read(dir.join("log.yaml")).unwrap()
    );
}

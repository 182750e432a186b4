//! Peer mode's transport (DEALERLESS.md "Transport"): two folders that exchange mails only
//! through outboxes and Maildirs, with a test payload; every cheat caught, naming the entry.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde::{Deserialize, Serialize};
use tempfile::TempDir;

use twilight_pbem::data::Side;
use twilight_pbem::log::Hex32;
use twilight_pbem::mail::transport::Transport;
use twilight_pbem::peer::dispute::{self, FindingKind, ReplicaView};
use twilight_pbem::peer::identity::Identity;
use twilight_pbem::peer::replica::{self, PeerConfig, Replica, ReplicaError};
use twilight_pbem::peer::signed_log::{Body, SignedEntry};
use twilight_pbem::peer::sync::{self, Bundle, Envelope, Ingested};

/// The test payload: what a protocol step would carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Note {
    turn: u64,
    text: String,
}

struct Player {
    id: Identity,
    key: PathBuf,
    dir: PathBuf,
    maildir: PathBuf,
}

fn player(root: &Path, side: Side) -> Player {
    let name = side.name().to_ascii_lowercase();
    let key = root.join(format!("{name}-key.yaml"));
    let id = Identity::generate().unwrap();
    id.save_new(&key).unwrap();
    let maildir = root.join(format!("{name}-Maildir"));
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    Player {
        id,
        key,
        dir: root.join(format!("{name}-game")),
        maildir,
    }
}

/// Writes `bundle` as a mail into `from`'s outbox; returns the .eml file.
fn mail_bundle(r: &Replica, bundle: &Bundle) -> PathBuf {
    let env = Envelope {
        from: &r.config.me,
        to: &r.config.opponent,
        text: "test".into(),
    };
    let msg = sync::compose(&env, bundle).unwrap();
    let t = Transport::Outbox(r.dir().join("outbox"));
    let said = t.deliver(&msg).unwrap();
    PathBuf::from(said.strip_prefix("outbox file ").unwrap())
}

/// The mail `r` owes now (every unacknowledged entry and its acknowledgement).
fn mail(r: &Replica, p: &Player) -> PathBuf {
    mail_bundle(r, &r.outgoing(&p.id))
}

/// Delivers an outbox mail into a Maildir's new/ (a copy: the relay may deliver it again).
fn deliver(eml: &Path, to: &Player, copy: u32) {
    let name = format!(
        "{}-{copy}",
        eml.file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".eml", "")
    );
    std::fs::copy(eml, to.maildir.join("new").join(name)).unwrap();
}

/// Takes in every new mail of `p`'s Maildir.
fn take_in(r: &mut Replica, p: &Player) -> Vec<Ingested> {
    let mut out = Vec::new();
    for m in sync::list_mails(std::slice::from_ref(&p.maildir)).unwrap() {
        let b = sync::read_mail(&std::fs::read(&m).unwrap()).unwrap();
        out.push(r.ingest(&b).unwrap());
        sync::mark_read(&m).unwrap();
    }
    out
}

/// A game the US created and mailed, which the USSR joined from that mail (its join not yet
/// mailed back).
fn joined(root: &Path) -> (Player, Replica, Player, Replica) {
    let us = player(root, Side::Us);
    let ussr = player(root, Side::Ussr);
    let r_us = Replica::create(
        &us.dir,
        PeerConfig {
            game: "peer-test".into(),
            side: Side::Us,
            me: "us@example.org".into(),
            opponent: "ussr@example.org".into(),
            key: us.key.clone(),
        },
        &us.id,
    )
    .unwrap();
    let first = mail(&r_us, &us);
    let bundle = sync::read_mail(&std::fs::read(&first).unwrap()).unwrap();
    let r_ussr = Replica::join(&ussr.dir, &bundle, &ussr.key, &ussr.id, None).unwrap();
    (us, r_us, ussr, r_ussr)
}

/// A started game: [`joined`], then the USSR mailed its join back and the US took that in.
fn started(root: &Path) -> (Player, Replica, Player, Replica) {
    let (us, mut r_us, ussr, r_ussr) = joined(root);
    deliver(&mail(&r_ussr, &ussr), &us, 0);
    let got = take_in(&mut r_us, &us);
    assert_eq!(got[0].appended, vec![1]);
    assert!(got[0].ack_taken);
    (us, r_us, ussr, r_ussr)
}

fn step(turn: u64, text: &str) -> Body {
    Body::step(&Note {
        turn,
        text: text.into(),
    })
    .unwrap()
}

fn view(r: &Replica) -> ReplicaView {
    let (entries, _, _) = replica::read_log(r.dir()).unwrap();
    ReplicaView {
        label: r.dir().display().to_string(),
        holder: r.config.side,
        entries,
        ack_from_opponent: r.sync.ack_from_opponent.clone(),
    }
}

#[test]
fn two_folders_exchange_steps_only_by_mail_and_agree() {
    let root = TempDir::new().unwrap();
    let (us, mut r_us, ussr, mut r_ussr) = started(root.path());
    assert_eq!(
        r_ussr.chain().key_of(Side::Us).unwrap(),
        us.id.public(),
        "the joiner learns the creator's key from the first mail"
    );
    // 30 mails, alternating; each player writes 1–3 steps before mailing (batched).
    for turn in 0..30u64 {
        let (me, r, other, r_other) = if turn % 2 == 0 {
            (&ussr, &mut r_ussr, &us, &mut r_us)
        } else {
            (&us, &mut r_us, &ussr, &mut r_ussr)
        };
        for k in 0..=(turn % 3) {
            r.append(&me.id, step(turn, &format!("step {k}"))).unwrap();
        }
        deliver(&mail(r, me), other, 0);
        let got = take_in(r_other, other);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].appended.len() as u64, turn % 3 + 1, "turn {turn}");
        assert!(got[0].findings.is_empty());
    }
    assert_eq!(r_us.chain(), r_ussr.chain());
    assert_eq!(
        r_us.chain().len(),
        2 + (0..30u64).map(|t| t % 3 + 1).sum::<u64>()
    );
    // Each mail carried only what the recipient had not acknowledged.
    assert!(r_us.sync.unacknowledged_from() >= r_us.chain().len() - 3);
    assert_eq!(
        r_us.chain().entries()[2].step_as::<Note>().unwrap(),
        Some(Note {
            turn: 0,
            text: "step 0".into()
        })
    );
    // Both replicas verify, alone and merged.
    assert!(dispute::verify(&[view(&r_us)]).is_empty());
    assert!(dispute::verify(&[view(&r_us), view(&r_ussr)]).is_empty());
    // A replica reopened from disk is the same.
    drop(r_us);
    let again = Replica::open(&us.dir).unwrap();
    assert_eq!(again.chain(), r_ussr.chain());
}

#[test]
fn duplicate_and_replayed_mails_change_nothing() {
    let root = TempDir::new().unwrap();
    let (us, mut r_us, ussr, mut r_ussr) = started(root.path());
    r_us.append(&us.id, step(1, "a")).unwrap();
    let old = mail(&r_us, &us);
    deliver(&old, &ussr, 0);
    deliver(&old, &ussr, 1); // delivered twice
    let got = take_in(&mut r_ussr, &ussr);
    assert_eq!(got[0].appended, vec![2]);
    assert_eq!(got[1].appended, Vec::<u64>::new());
    assert!(got[1].duplicates >= 1);
    let len = r_ussr.chain().len();
    // Much later, the old mail is replayed.
    r_ussr.append(&ussr.id, step(1, "b")).unwrap();
    deliver(&mail(&r_ussr, &ussr), &us, 0);
    take_in(&mut r_us, &us);
    deliver(&old, &ussr, 2);
    let got = take_in(&mut r_ussr, &ussr);
    assert!(got[0].appended.is_empty() && got[0].findings.is_empty());
    assert!(
        !got[0].ack_taken,
        "an older acknowledgement never replaces a newer one"
    );
    assert_eq!(r_ussr.chain().len(), len + 1);
}

#[test]
fn out_of_order_mails_wait_for_the_gap() {
    let root = TempDir::new().unwrap();
    let (us, mut r_us, ussr, mut r_ussr) = started(root.path());
    r_us.append(&us.id, step(1, "a")).unwrap();
    let m1 = mail_bundle(&r_us, &Bundle::of(&us.id, r_us.chain(), Side::Us, 2));
    r_us.append(&us.id, step(1, "b")).unwrap();
    r_us.append(&us.id, step(1, "c")).unwrap();
    let m2 = mail_bundle(&r_us, &Bundle::of(&us.id, r_us.chain(), Side::Us, 3));
    deliver(&m2, &ussr, 0);
    let got = take_in(&mut r_ussr, &ussr);
    assert_eq!(got[0].buffered, vec![3, 4]);
    assert!(got[0].appended.is_empty());
    assert!(!got[0].ack_taken, "an acknowledgement beyond our end waits");
    // The buffer survives a restart.
    drop(r_ussr);
    let mut r_ussr = Replica::open(&ussr.dir).unwrap();
    assert_eq!(r_ussr.sync.pending.len(), 2);
    deliver(&m1, &ussr, 0);
    let got = take_in(&mut r_ussr, &ussr);
    assert_eq!(got[0].appended, vec![2, 3, 4]);
    assert!(r_ussr.sync.pending.is_empty());
    assert_eq!(r_ussr.chain(), r_us.chain());
}

#[test]
fn two_entries_at_one_seq_are_a_fork_named_with_both() {
    let root = TempDir::new().unwrap();
    let (us, mut r_us, ussr, mut r_ussr) = started(root.path());
    let head = r_us.chain().head();
    r_us.append(&us.id, step(1, "I play Duck and Cover"))
        .unwrap();
    deliver(&mail(&r_us, &us), &ussr, 0);
    take_in(&mut r_ussr, &ussr);
    // The US signs a second, different entry 2 after the same head, and mails it.
    let other =
        SignedEntry::sign(&us.id, "peer-test", 2, head, Side::Us, step(1, "no, Fidel")).unwrap();
    let mut b = Bundle::of(&us.id, r_us.chain(), Side::Us, 2);
    b.entries = vec![other.clone()];
    deliver(&mail_bundle(&r_us, &b), &ussr, 1);
    let got = take_in(&mut r_ussr, &ussr);
    let f = &got[0].findings[0];
    assert_eq!(f.kind, FindingKind::Fork);
    assert_eq!(f.seq, 2);
    assert_eq!(f.at_fault, Some(Side::Us));
    assert_eq!(f.evidence.len(), 2);
    assert!(f.message.contains(&r_ussr.chain().entries()[2].name()));
    assert!(f.message.contains(&other.name()));
    // The game stops: nothing more is taken in, and the finding is kept on disk.
    r_us.append(&us.id, step(2, "later")).unwrap();
    deliver(&mail(&r_us, &us), &ussr, 2);
    let b = sync::read_mail(
        &std::fs::read(sync::list_mails(std::slice::from_ref(&ussr.maildir)).unwrap()[0].clone())
            .unwrap(),
    )
    .unwrap();
    assert!(matches!(r_ussr.ingest(&b), Err(ReplicaError::Bundle(_))));
    drop(r_ussr);
    assert_eq!(Replica::open(&ussr.dir).unwrap().sync.findings.len(), 1);
}

#[test]
fn a_forged_or_altered_entry_in_a_mail_is_refused_whole_blaming_nobody() {
    // A mail whose entry carries a bad signature is not the claimed sender's fault, and does
    // not stop the game: a bad signature proves nothing about the claimed sender (a relay may
    // have altered it). The mail is refused whole and nothing of it is kept.
    let root = TempDir::new().unwrap();
    let (us, mut r_us, _ussr, mut r_ussr) = started(root.path());
    r_us.append(&us.id, step(1, "realign Iran")).unwrap();
    r_us.append(&us.id, step(1, "then Iraq")).unwrap();
    // A relay alters the payload of entry 3 in the attachment (entry 2 is intact).
    let eml = mail(&r_us, &us);
    let text = std::fs::read_to_string(&eml).unwrap();
    assert!(text.contains("then Iraq"));
    std::fs::write(&eml, text.replace("then Iraq", "then Cuba")).unwrap();
    let sync_before = r_ussr.sync.clone();
    let b = sync::read_mail(&std::fs::read(&eml).unwrap()).unwrap();
    let e = r_ussr.ingest(&b).unwrap_err();
    let said = e.to_string();
    assert!(
        said.contains("a mail with an entry not signed by the US's key (forged or corrupted)")
            && said.contains("refused, nothing taken")
            && said.contains("entry 3"),
        "{said}"
    );
    assert!(
        !said.contains("at fault"),
        "nobody is blamed for it: {said}"
    );
    assert_eq!(
        r_ussr.chain().len(),
        2,
        "not even the intact entry 2 is taken"
    );
    assert_eq!(
        r_ussr.sync, sync_before,
        "no finding, no acknowledgement kept"
    );
    // The genuine mail, delivered afterwards, is taken as usual: the game is not stopped.
    let good = mail(&r_us, &us);
    let b = sync::read_mail(&std::fs::read(&good).unwrap()).unwrap();
    let got = r_ussr.ingest(&b).unwrap();
    assert_eq!(got.appended, vec![2, 3]);
    assert!(got.findings.is_empty());
}

#[test]
fn a_forged_acknowledgement_is_refused_the_same_way() {
    let root = TempDir::new().unwrap();
    let (us, r_us, _ussr, mut r_ussr) = started(root.path());
    let mut b = r_us.outgoing(&us.id);
    b.ack.sig = other_sig(&b);
    let sync_before = r_ussr.sync.clone();
    let e = r_ussr.ingest(&b).unwrap_err();
    assert!(
        e.to_string().contains("not signed by the US's key")
            && e.to_string().contains("the acknowledgement"),
        "{e}"
    );
    assert_eq!(r_ussr.sync, sync_before, "nothing kept");
}

#[test]
fn a_join_remade_with_another_key_is_refused_as_not_signed_not_a_fork() {
    // Entry 1 (`join`) carries its author's key: a copy made and signed with another key
    // would verify under the key inside it. Once the chain holds the USSR's key, it is no
    // signature of the USSR's, so nobody is blamed for a fork.
    let root = TempDir::new().unwrap();
    let (_us, mut r_us, ussr, r_ussr) = started(root.path());
    let forger = Identity::from_secret(&[9; 32]);
    let remade = SignedEntry::sign(
        &forger,
        "peer-test",
        1,
        r_us.chain().entries()[0].hash(),
        Side::Ussr,
        Body::Join {
            key: forger.public(),
        },
    )
    .unwrap();
    let mut b = r_ussr.outgoing(&ussr.id);
    b.entries = vec![remade];
    let sync_before = r_us.sync.clone();
    let e = r_us.ingest(&b).unwrap_err();
    assert!(
        e.to_string().contains("not signed by the USSR's key") && e.to_string().contains("entry 1"),
        "{e}"
    );
    assert_eq!(r_us.sync, sync_before, "no finding kept");
}

/// A signature that is not the US's: bytes signed by another key.
fn other_sig(b: &Bundle) -> twilight_pbem::peer::identity::Sig {
    Identity::from_secret(&[9; 32]).sign(format!("{:?}", b.ack.head).as_bytes())
}

#[test]
fn the_ussr_cannot_sign_for_the_us_nor_replay_an_entry_elsewhere() {
    let root = TempDir::new().unwrap();
    let (us, r_us, ussr, mut r_ussr) = started(root.path());
    // An entry claiming the US as author, signed with the USSR key.
    let forged = SignedEntry::sign(
        &ussr.id,
        "peer-test",
        2,
        r_us.chain().head(),
        Side::Us,
        step(1, "x"),
    )
    .unwrap();
    assert!(r_ussr.chain().fault_of_next(&forged).is_some());
    // The US's genuine entry 2 of another game, replayed into this one.
    let elsewhere = SignedEntry::sign(
        &us.id,
        "peer-other",
        2,
        r_us.chain().head(),
        Side::Us,
        step(1, "y"),
    )
    .unwrap();
    // A genuine entry numbered for another position.
    let moved = SignedEntry::sign(
        &us.id,
        "peer-test",
        5,
        r_us.chain().head(),
        Side::Us,
        step(1, "z"),
    )
    .unwrap();
    for (e, kind) in [
        (forged, FindingKind::BadSignature),
        (elsewhere, FindingKind::BadLink),
    ] {
        let mut b = Bundle::of(&us.id, r_us.chain(), Side::Us, 2);
        b.entries = vec![e.clone()];
        let f = r_ussr.chain().fault_of_next(&e).unwrap();
        let finding = dispute::link_finding(&e, &f, "test", Side::Us);
        assert_eq!(finding.kind, kind, "{finding}");
    }
    let mut b = Bundle::of(&us.id, r_us.chain(), Side::Us, 2);
    b.entries = vec![moved];
    let got = r_ussr.ingest(&b).unwrap();
    assert_eq!(
        got.buffered,
        vec![5],
        "a far-ahead entry waits; it never fills seq 2"
    );
    assert_eq!(r_ussr.chain().len(), 2);
}

#[test]
fn altering_an_acknowledged_entry_is_caught_naming_entry_and_party() {
    let root = TempDir::new().unwrap();
    let (us, mut r_us, ussr, mut r_ussr) = started(root.path());
    r_us.append(&us.id, step(1, "coup Iran")).unwrap();
    deliver(&mail(&r_us, &us), &ussr, 0);
    take_in(&mut r_ussr, &ussr);
    r_ussr.append(&ussr.id, step(1, "answer")).unwrap();
    deliver(&mail(&r_ussr, &ussr), &us, 0);
    take_in(&mut r_us, &us);
    assert_eq!(
        r_us.sync.unacknowledged_from(),
        4,
        "the USSR acknowledged entry 2"
    );
    let (ussr_dir, us_dir) = (ussr.dir.clone(), us.dir.clone());
    drop((r_us, r_ussr));

    // (a) The USSR edits the US's entry 2 in its own replica.
    let log = ussr_dir.join(replica::LOG_FILE);
    let original = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, original.replace("coup Iran", "coup Cuba")).unwrap();
    let e = Replica::open(&ussr_dir).unwrap_err();
    assert!(e.to_string().contains("entry 2"), "{e}");
    let r_us = Replica::open(&us_dir).unwrap();
    let v_us = view(&r_us);
    let v_ussr = ReplicaView {
        label: ussr_dir.display().to_string(),
        holder: Side::Ussr,
        entries: replica::read_log(&ussr_dir).unwrap().0,
        ack_from_opponent: replica::read_sync(&ussr_dir).unwrap().ack_from_opponent,
    };
    let findings = dispute::verify(&[v_us.clone(), v_ussr.clone()]);
    let f = &findings[0];
    assert_eq!(
        (f.seq, f.kind, f.at_fault),
        (2, FindingKind::BadSignature, Some(Side::Ussr))
    );
    std::fs::write(&log, &original).unwrap();
    let v_ussr = ReplicaView {
        entries: replica::read_log(&ussr_dir).unwrap().0,
        ..v_ussr
    };

    // (b) The US rewrites its own entry 2, re-signed, after the USSR acknowledged it.
    let (entries, _, _) = replica::read_log(&us_dir).unwrap();
    let e2 = &entries[2];
    let rewritten = SignedEntry::sign(
        &us.id,
        "peer-test",
        2,
        e2.prev,
        Side::Us,
        step(1, "coup Cuba"),
    )
    .unwrap();
    let mut forged_log = entries.clone();
    forged_log.truncate(2);
    forged_log.push(rewritten.clone());
    let v_us_forged = ReplicaView {
        entries: forged_log,
        ..v_us
    };
    let findings = dispute::verify(&[v_us_forged, v_ussr]);
    let fork = findings
        .iter()
        .find(|f| f.kind == FindingKind::Fork)
        .unwrap();
    assert_eq!((fork.seq, fork.at_fault), (2, Some(Side::Us)));
    assert!(fork.message.contains(&rewritten.name()));
    let ack = findings
        .iter()
        .find(|f| f.kind == FindingKind::AckMismatch)
        .expect("the USSR holds the US's signed acknowledgement of the original");
    assert_eq!(ack.at_fault, Some(Side::Us));
}

#[test]
fn a_torn_last_entry_is_set_aside_not_deleted() {
    let root = TempDir::new().unwrap();
    let (us, r_us, _ussr, _r) = started(root.path());
    drop(r_us);
    let log = us.dir.join(replica::LOG_FILE);
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("---\ngame: peer-test\nseq: 2\npre");
    std::fs::write(&log, &text).unwrap();
    let r = Replica::open(&us.dir).unwrap();
    assert_eq!(r.chain().len(), 2);
    assert_eq!(
        std::fs::read_to_string(us.dir.join("peer-log.torn-1.yaml")).unwrap(),
        "---\ngame: peer-test\nseq: 2\npre"
    );
}

/// The signature test vector of schemas/DEALERLESS.md "Transport".
#[test]
fn signature_test_vector() {
    let id = Identity::from_secret(&[7; 32]);
    let e = SignedEntry::sign(
        &id,
        "peer-0000",
        0,
        Hex32::ZERO,
        Side::Us,
        Body::Open {
            creator: Side::Us,
            us: "us@example.org".into(),
            ussr: "ussr@example.org".into(),
            key: id.public(),
            options: None,
        },
    )
    .unwrap();
    let bytes = e.signed_bytes().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&bytes),
        format!(
            "twilight-peer-entry v1\0{{\"author\":\"us\",\"body\":{{\"creator\":\"us\",\"key\":\"{}\",\"kind\":\"open\",\"us\":\"us@example.org\",\"ussr\":\"ussr@example.org\"}},\"game\":\"peer-0000\",\"prev\":\"{}\",\"seq\":0}}",
            id.public(),
            Hex32::ZERO
        )
    );
    assert_eq!(id.public().to_string(), VECTOR_PUBLIC);
    assert_eq!(id.public().fingerprint(), VECTOR_FINGERPRINT);
    assert_eq!(e.sig.to_string(), VECTOR_SIG);
    assert_eq!(e.hash().to_hex(), VECTOR_HASH);
}

const VECTOR_PUBLIC: &str = "ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c";
const VECTOR_FINGERPRINT: &str = "db5c-adf4-8383-ab30-7def";
const VECTOR_SIG: &str = "f0e2c61191a62400ef5cac8269d9a27577299f732a47e10bb5ba92d455aced0de7296bf7f6c87e17f723bab0868aa81ccb7626d53024fea72d194097c500230f";
const VECTOR_HASH: &str = "3d261b70919b0375136420dfa75896d7cd3af42a990a6ff1a54cfd7a7ae41ea6";

fn twilight() -> Command {
    let mut c = Command::cargo_bin("twilight").unwrap();
    c.env_remove("TWILIGHT_SMTP_URL").env_remove("TWILIGHT_KEY");
    c
}

fn only_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[test]
fn cli_keygen_new_join_inbox_verify() {
    let root = TempDir::new().unwrap();
    let r = root.path();
    let (ka, kb) = (r.join("a.key"), r.join("b.key"));
    let out = twilight()
        .args(["keygen", "--out"])
        .arg(&ka)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("Fingerprint: "), "{said}");
    twilight()
        .args(["keygen", "--out"])
        .arg(&ka)
        .assert()
        .code(2);
    twilight()
        .args(["keygen", "--out"])
        .arg(&kb)
        .assert()
        .success();
    let (ga, gb) = (r.join("a"), r.join("b"));
    twilight()
        .arg("new")
        .arg(&ga)
        .args([
            "--peer",
            "--as",
            "us",
            "--me",
            "a@example.org",
            "--opponent",
            "b@example.org",
            "--key",
        ])
        .arg(&ka)
        .assert()
        .success();
    let first = only_file(&ga.join("outbox"));
    let out = twilight()
        .arg("join")
        .arg(&gb)
        .args(["--peer", "--from-mail"])
        .arg(&first)
        .arg("--key")
        .arg(&kb)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let a_fp = Identity::load(&ka).unwrap().public().fingerprint();
    assert!(
        said.contains(&a_fp),
        "the joiner is shown the creator's fingerprint: {said}"
    );
    let reply = only_file(&gb.join("outbox"));
    let maildir = r.join("a-Maildir");
    std::fs::create_dir_all(maildir.join("new")).unwrap();
    std::fs::copy(&reply, maildir.join("new").join("1")).unwrap();
    twilight()
        .args(["peer", "inbox"])
        .arg(&ga)
        .arg(&maildir)
        .assert()
        .success();
    assert!(
        maildir.join("cur").join("1:2,S").is_file(),
        "moved to cur/, never deleted"
    );
    twilight()
        .arg("verify")
        .arg(&ga)
        .arg(&gb)
        .assert()
        .success();
    // The same mail again (a copy delivered twice): harmless.
    std::fs::copy(&reply, maildir.join("new").join("2")).unwrap();
    twilight()
        .args(["peer", "inbox"])
        .arg(&ga)
        .arg(&maildir)
        .assert()
        .success();
    // A forged entry in one replica: verify names it and exits 1.
    let log = gb.join(replica::LOG_FILE);
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replace("a@example.org", "z@example.org")).unwrap();
    let out = twilight().arg("verify").arg(&ga).arg(&gb).assert().code(1);
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("FINDING entry 0"), "{said}");
}

/// Copies every outbox mail of `from` not yet delivered into the Maildir `to` (new/).
fn relay(from: &Path, to: &Path, sent: &mut std::collections::HashSet<PathBuf>) {
    for e in std::fs::read_dir(from.join("outbox")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "eml") && sent.insert(p.clone()) {
            std::fs::copy(&p, to.join("new").join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// Every file of a peer folder, by name, for "nothing was written".
fn folder_bytes(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn cli_peer_play_refuses_an_illegal_move_with_exit_1_and_writes_nothing() {
    // A refused move exits 1, as the README's exit-code table gives for a move refused, not 2
    // (a usage error).
    let root = TempDir::new().unwrap();
    let r = root.path();
    let (ka, kb) = (r.join("a.key"), r.join("b.key"));
    for k in [&ka, &kb] {
        twilight()
            .args(["keygen", "--out"])
            .arg(k)
            .assert()
            .success();
    }
    let (ga, gb) = (r.join("a"), r.join("b"));
    twilight()
        .arg("new")
        .arg(&ga)
        .args([
            "--peer",
            "--as",
            "us",
            "--me",
            "a@x.org",
            "--opponent",
            "b@x.org",
        ])
        .arg("--key")
        .arg(&ka)
        .assert()
        .success();
    let first = only_file(&ga.join("outbox"));
    twilight()
        .arg("join")
        .arg(&gb)
        .args(["--peer", "--from-mail"])
        .arg(&first)
        .arg("--key")
        .arg(&kb)
        .assert()
        .success();
    let (ma, mb) = (r.join("ma"), r.join("mb"));
    for m in [&ma, &mb] {
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(m.join(sub)).unwrap();
        }
    }
    let mut sent = std::collections::HashSet::new();
    sent.insert(first);
    // The two softwares answer each other's protocol steps until the USSR owes its setup.
    let mut owed = String::new();
    for _ in 0..8 {
        relay(&gb, &ma, &mut sent);
        twilight()
            .args(["peer", "inbox"])
            .arg(&ga)
            .arg(&ma)
            .assert()
            .success();
        twilight()
            .args(["peer", "moves"])
            .arg(&ga)
            .assert()
            .success();
        let _ = twilight().args(["peer", "send"]).arg(&ga).output().unwrap();
        relay(&ga, &mb, &mut sent);
        twilight()
            .args(["peer", "inbox"])
            .arg(&gb)
            .arg(&mb)
            .assert()
            .success();
        let out = twilight()
            .args(["peer", "moves"])
            .arg(&gb)
            .assert()
            .success();
        owed = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        if owed.starts_with("Your decision.") {
            break;
        }
        let _ = twilight().args(["peer", "send"]).arg(&gb).output().unwrap();
    }
    assert!(owed.starts_with("Your decision."), "{owed}");
    assert!(
        owed.contains("Your hand: ") && !owed.contains("Your hand: ["),
        "the hand by printed names: {owed}"
    );
    let before = folder_bytes(&gb);
    for line in [
        "influence Poland 7",
        "influence Narnia 1",
        "fly to the moon",
    ] {
        let out = twilight()
            .args(["peer", "play"])
            .arg(&gb)
            .arg(line)
            .assert()
            .code(1);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains("refused"), "{line}: {err}");
    }
    assert_eq!(folder_bytes(&gb), before, "a refused move writes nothing");
}

/// Peer games with the game's options (DEALERLESS.md §9 "Options"): `new --peer` records
/// them in entry 0, `join --peer` shows them and needs them accepted, both replicas play with
/// them; options peer mode cannot play are refused naming why.
mod options {
    use super::*;
    use twilight_pbem::engine::Options;
    use twilight_pbem::peer::folder::PeerFolder;

    fn keygen(path: &Path) {
        twilight()
            .args(["keygen", "--out"])
            .arg(path)
            .assert()
            .success();
    }

    fn new_peer(dir: &Path, key: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
        twilight()
            .arg("new")
            .arg(dir)
            .args([
                "--peer",
                "--as",
                "us",
                "--me",
                "a@example.org",
                "--opponent",
                "b@example.org",
                "--key",
            ])
            .arg(key)
            .args(extra)
            .assert()
    }

    fn text(a: &assert_cmd::assert::Assert) -> String {
        let o = a.get_output();
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    }

    /// Two players' keys `a.key`, `b.key` in `r`, and their game folders `a`, `b` (not made).
    fn two_players(r: &Path) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
        let (ka, kb) = (r.join("a.key"), r.join("b.key"));
        keygen(&ka);
        keygen(&kb);
        (ka, kb, r.join("a"), r.join("b"))
    }

    #[test]
    fn options_travel_in_entry_0_are_accepted_on_join_and_played_by_both() {
        let root = TempDir::new().unwrap();
        let r = root.path();
        let (ka, kb, ga, gb) = two_players(r);
        let made = new_peer(
            &ga,
            &ka,
            &["--promos", "all", "--alt-space-race", "--chinese-civil-war"],
        )
        .success();
        let said = text(&made);
        assert!(
            said.contains("Options: standard game · Chinese Civil War · alternative Space Race track · optional cards · promo packs 1, 2 · US +2 bonus Influence."),
            "{said}"
        );
        let first = only_file(&ga.join("outbox"));
        let raw = std::fs::read(&first).unwrap();
        let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let mail = parsed.body_text(0).unwrap().into_owned();
        assert!(
            mail.contains("--accept-options"),
            "the invitation says how to accept"
        );
        // Without accepting: refused, nothing written.
        let refused = twilight()
            .arg("join")
            .arg(&gb)
            .args(["--peer", "--from-mail"])
            .arg(&first)
            .arg("--key")
            .arg(&kb)
            .assert()
            .failure();
        let said = text(&refused);
        assert!(
            said.contains("Chinese Civil War") && said.contains("promo packs 1, 2"),
            "the joiner sees them: {said}"
        );
        assert!(said.contains("--accept-options"), "{said}");
        assert!(
            !gb.exists() || std::fs::read_dir(&gb).unwrap().next().is_none(),
            "nothing written"
        );
        twilight()
            .arg("join")
            .arg(&gb)
            .args(["--peer", "--accept-options", "--from-mail"])
            .arg(&first)
            .arg("--key")
            .arg(&kb)
            .assert()
            .success();
        let reply = only_file(&gb.join("outbox"));
        let maildir = r.join("a-Maildir");
        std::fs::create_dir_all(maildir.join("new")).unwrap();
        std::fs::copy(&reply, maildir.join("new").join("1")).unwrap();
        twilight()
            .args(["peer", "inbox"])
            .arg(&ga)
            .arg(&maildir)
            .assert()
            .success();
        let want = Options {
            promos: vec![1, 2],
            alt_space_race: true,
            chinese_civil_war: true,
            ..Options::default()
        };
        for dir in [&ga, &gb] {
            let f = PeerFolder::open(dir).unwrap();
            assert_eq!(f.replica.chain().options(), Some(want.clone()));
            let g = f.game.as_ref().expect("joined");
            assert_eq!(g.game().state().options, want);
            assert_eq!(g.game().state().china.holder, None, "Chinese Civil War");
        }
        // The game-level check of `peer status` replays the log with the game's options
        // (not the standard ones, under which every own move would look forged).
        for dir in [&ga, &gb] {
            let status = twilight()
                .args(["peer", "status"])
                .arg(dir)
                .assert()
                .success();
            let said = text(&status);
            assert!(!said.contains("FINDING"), "{said}");
        }
    }

    #[test]
    fn standard_options_are_absent_from_entry_0_and_need_no_acceptance() {
        let root = TempDir::new().unwrap();
        let r = root.path();
        let (ka, kb, ga, gb) = two_players(r);
        new_peer(&ga, &ka, &[]).success();
        let log = std::fs::read_to_string(ga.join("peer-log.yaml")).unwrap();
        assert!(!log.contains("options"), "{log}");
        let first = only_file(&ga.join("outbox"));
        twilight()
            .arg("join")
            .arg(&gb)
            .args(["--peer", "--from-mail"])
            .arg(&first)
            .arg("--key")
            .arg(&kb)
            .assert()
            .success();
    }

    #[test]
    fn new_peer_refuses_turn_zero_and_bids_naming_why_and_creates_nothing() {
        let root = TempDir::new().unwrap();
        let r = root.path();
        let (ka, _, g, _) = two_players(r);
        let said = text(&new_peer(&g, &ka, &["--turn-zero"]).failure());
        assert!(
            said.contains("Turn Zero") && said.contains("sealed"),
            "{said}"
        );
        assert!(!g.exists(), "nothing created");
        let said = text(&new_peer(&g, &ka, &["--bid"]).failure());
        assert!(said.contains("blind bid"), "{said}");
        let said =
            text(&new_peer(&g, &ka, &["--scenario", "late-war", "--chinese-civil-war"]).failure());
        assert!(said.contains("Chinese Civil War"), "{said}");
        assert!(!g.exists(), "nothing created");
    }
}

#[test]
fn a_forged_entry_held_back_before_the_join_blames_nobody_when_the_join_comes() {
    // Before the USSR's join reaches the US, the US's software knows no USSR key, so a mail
    // "from the USSR" whose entry lies beyond the gap cannot be checked and waits. When the
    // genuine join arrives, that forged entry fails its signature and must blame nobody:
    // reported as the USSR's fault, stopping the game, it would let a stranger who knew the
    // game's name stop every new game and blame the joiner.
    let root = TempDir::new().unwrap();
    let (us, mut r_us, ussr, mut r_ussr) = joined(root.path());
    // A stranger signs an entry 2 as the USSR and mails it first.
    let stranger = Identity::generate().unwrap();
    let forged = SignedEntry::sign(
        &stranger,
        "peer-test",
        2,
        r_ussr.chain().head(),
        Side::Ussr,
        step(1, "the US resigns"),
    )
    .unwrap();
    let mut fake = Bundle::of(&stranger, r_ussr.chain(), Side::Ussr, 2);
    fake.entries = vec![forged];
    deliver(&mail_bundle(&r_ussr, &fake), &us, 0);
    take_in(&mut r_us, &us);
    // Then the genuine join, and the USSR's genuine entry 2.
    deliver(&mail(&r_ussr, &ussr), &us, 1);
    let got = take_in(&mut r_us, &us);
    let findings: Vec<_> = got.iter().flat_map(|g| g.findings.clone()).collect();
    assert!(
        findings.is_empty(),
        "the USSR is blamed for a stranger's entry: {findings:?}"
    );
    assert_eq!(r_us.chain().len(), 2);
    r_ussr.append(&ussr.id, step(1, "genuine entry 2")).unwrap();
    deliver(&mail(&r_ussr, &ussr), &us, 2);
    let got = take_in(&mut r_us, &us);
    assert!(got.iter().all(|g| g.findings.is_empty()), "{got:?}");
    assert_eq!(r_us.chain(), r_ussr.chain());
}

#[test]
fn cli_a_relative_key_path_still_works_from_another_directory() {
    // `new game --peer --key key.yaml` must not store `key.yaml` as given: every later
    // command run from another directory would fail with "key.yaml: open: No such file or
    // directory" on both `new` and `join` folders.
    let root = TempDir::new().unwrap();
    let r = root.path();
    for p in ["alice", "bob", "elsewhere"] {
        std::fs::create_dir_all(r.join(p)).unwrap();
    }
    for p in ["alice", "bob"] {
        twilight()
            .current_dir(r.join(p))
            .args(["keygen", "--out", "key.yaml"])
            .assert()
            .success();
    }
    twilight()
        .current_dir(r.join("alice"))
        .args([
            "new",
            "game",
            "--peer",
            "--as",
            "us",
            "--me",
            "a@x",
            "--opponent",
            "b@y",
            "--key",
            "key.yaml",
        ])
        .assert()
        .success();
    let invite = only_file(&r.join("alice/game/outbox"));
    twilight()
        .current_dir(r.join("bob"))
        .args(["join", "game", "--peer", "--key", "key.yaml", "--from-mail"])
        .arg(&invite)
        .assert()
        .success();
    let reply = only_file(&r.join("bob/game/outbox"));
    let maildir = r.join("alice/Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    std::fs::copy(&reply, maildir.join("new/reply.eml")).unwrap();
    // Both players run their next commands from another directory.
    twilight()
        .current_dir(r.join("elsewhere"))
        .args(["peer", "inbox"])
        .arg(r.join("alice/game"))
        .arg(&maildir)
        .assert()
        .success();
    twilight()
        .current_dir(r.join("elsewhere"))
        .args(["peer", "send"])
        .arg(r.join("bob/game"))
        .assert()
        .success();
}

//! An outside verifier's reading of FAIRNESS.md §3.4, from the log alone: every `die` record is
//! re-derived with the published `dice_key` of the turn its resolution started in, where that turn
//! is 1 + the number of `dice_key` entries logged before the resolution's `decision` entry, `r`
//! counts `decision` entries and `k` counts the `die` records since that entry. No engine replay,
//! no seed: if the engine keyed a die any other way, or published a key at another place, the
//! log-only rule of the spec would stop holding and this test fails.

use serde_yaml::Value;
use std::collections::BTreeMap;
use twilight_pbem::chance::fairness;

fn hex32(v: &Value) -> [u8; 32] {
    let bytes = hex::decode(v.as_str().expect("a hex string")).expect("hex");
    bytes.try_into().expect("32 bytes")
}

/// Splits a log into its documents as §11 defines them (a line that is exactly `---` starts one).
fn documents(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text.match_indices("---\n").map(|(i, _)| i).collect();
    starts.retain(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n');
    starts
        .iter()
        .enumerate()
        .map(|(n, &s)| &text[s..starts.get(n + 1).copied().unwrap_or(text.len())])
        .collect()
}

/// Re-derives every die of `log` from the log alone; returns (dice checked, dice without a key).
fn dice_from_log_alone(log: &str) -> (usize, usize) {
    let entries: Vec<Value> = documents(log)
        .iter()
        .map(|d| serde_yaml::from_str(d).expect("an entry"))
        .collect();
    let payload = |e: &Value| e["payload"].clone();
    let keys: BTreeMap<u64, [u8; 32]> = entries
        .iter()
        .filter_map(|e| {
            let p = payload(e);
            let dk = p.get("dice_key")?;
            Some((dk["turn"].as_u64().unwrap(), hex32(&dk["key"])))
        })
        .collect();
    let end = hex32(&payload(&entries[0])["create"]["dice_chain_end"]);
    for (turn, key) in &keys {
        assert!(
            fairness::is_dice_key(key, *turn as u32, &end),
            "turn {turn}"
        );
    }
    let nonce = |side: &str| {
        entries
            .iter()
            .find_map(|e| {
                let j = payload(e).get("join")?.clone();
                (j["side"].as_str() == Some(side)).then(|| j["nonce"].as_str().unwrap().to_owned())
            })
            .expect("both joins")
    };
    let mix = fairness::nonce_mix(&nonce("ussr"), &nonce("us"));
    let (mut r, mut k, mut turn, mut res_turn) = (0u64, 0u64, 1u64, 1u64);
    let (mut checked, mut unkeyed) = (0, 0);
    for e in &entries {
        let p = payload(e);
        if p.get("decision").is_some() {
            r += 1;
            k = 0;
            res_turn = turn;
        } else if let Some(dk) = p.get("dice_key") {
            turn = dk["turn"].as_u64().unwrap() + 1;
        } else if let Some(die) = p.get("chance").and_then(|c| c["what"].get("die")) {
            match keys.get(&res_turn) {
                Some(key) => {
                    let derived = fairness::die_roll(key, &mix, "die", r, k);
                    assert_eq!(
                        u64::from(derived),
                        die.as_u64().unwrap(),
                        "seq {:?}: r={r} k={k} turn={res_turn}",
                        e["seq"]
                    );
                    checked += 1;
                }
                None => unkeyed += 1,
            }
            k += 1;
        }
    }
    (checked, unkeyed)
}

#[test]
fn every_die_of_the_complete_example_re_derives_from_the_log_alone() {
    let log = std::fs::read_to_string("games/example-complete/log.yaml").unwrap();
    assert_eq!(dice_from_log_alone(&log), (168, 0));
}

#[test]
fn the_example_in_progress_checks_the_dice_of_its_finished_turns_only() {
    let log = std::fs::read_to_string("games/example/log.yaml").unwrap();
    let (checked, unkeyed) = dice_from_log_alone(&log);
    assert_eq!(checked, 31);
    assert_eq!(
        unkeyed, 0,
        "the example stops at turn 3's headline: no die of turn 3 yet"
    );
}

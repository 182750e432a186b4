//! Card and country name lookups with their tables made once per process (`notation.rs`,
//! `OnceLock`): exact names, numbers, prefixes, ambiguous prefixes and suggestions for unknown
//! words give the same answers as when the tables were made for each lookup, from any thread
//! (the first lookups racing to make the tables), as often as asked. A test binary of its own,
//! so that its threads make the first lookups of the process.

use twilight_pbem::data::{ALL_CARDS, ALL_COUNTRIES};
use twilight_pbem::text::notation::{find_card, find_country};

fn show_card(w: &str) -> String {
    match find_card(w) {
        Ok(c) => format!("{c:?}"),
        Err(e) => e.to_string(),
    }
}

fn show_country(w: &str) -> String {
    match find_country(w) {
        Ok(c) => format!("{c:?}"),
        Err(e) => e.to_string(),
    }
}

/// The answers the lookups gave when their tables were made for each lookup.
const CARDS: [(&str, &str); 12] = [
    ("duck", "DuckAndCover"),
    ("4", "DuckAndCover"),
    ("china", "ChinaCard"),
    ("de", "`de` is ambiguous: it could be De Gaulle Leads France (#17), Decolonization (#30), De-Stalinization (#33), Defectors (#103)"),
    ("Nasr", "unknown card `Nasr`; did you mean Nasser (#15), Asia Scoring (#1), NATO (#21)?"),
    ("", "cannot read ``: a card name is missing"),
    ("ü", "unknown card `ü`"),
    ("the", "`the` is ambiguous: it could be The China Card (#6), The Voice of America (#74), The Iron Lady (#83), The Reformer (#87), The Cambridge Five (#104)"),
    ("104", "TheCambridgeFive"),
    ("999", "unknown card `999`; did you mean Pershing II Deployed (#99), Vietnam Revolts (#9), Truman Doctrine (#19)?"),
    ("un", "UnIntervention"),
    ("red scare", "RedScarePurge"),
];

const COUNTRIES: [(&str, &str); 9] = [
    ("W Germany", "WestGermany"),
    ("west germany", "WestGermany"),
    ("SE African States", "SeAfricanStates"),
    ("ger", "`ger` is ambiguous: it could be West Germany, East Germany"),
    ("s", "`s` is ambiguous: it could be Sweden, Spain/Portugal, Syria, Saudi Arabia, South Korea, Saharan States, South Africa, SE African States, Somalia, Sudan"),
    ("Frnace", "unknown country `Frnace`; did you mean France, SE African States, Israel?"),
    ("Korea", "`Korea` is ambiguous: it could be South Korea, North Korea"),
    ("Ivory", "IvoryCoast"),
    ("congo", "unknown country `congo`; did you mean Colombia, Czechoslovakia?"),
];

fn check_all() {
    for (w, want) in CARDS {
        assert_eq!(show_card(w), want, "card {w:?}");
    }
    for (w, want) in COUNTRIES {
        assert_eq!(show_country(w), want, "country {w:?}");
    }
    for c in ALL_CARDS {
        assert_eq!(find_card(&c.number().to_string()).ok(), Some(c), "{c:?}");
        assert_eq!(find_card(c.name()).ok(), Some(c), "{c:?}");
    }
    for c in ALL_COUNTRIES {
        assert_eq!(find_country(c.name()).ok(), Some(c), "{c:?}");
    }
}

/// Eight threads look up at once (the first lookups racing to make the tables), then again.
#[test]
fn name_lookups_give_the_same_answers_from_every_thread_every_time() {
    let threads: Vec<_> = (0..8).map(|_| std::thread::spawn(check_all)).collect();
    for t in threads {
        t.join().unwrap();
    }
    check_all();
}

"""Re-derives the sealed chance of finished twilight-pbem games from schemas/FAIRNESS.md alone.

For each game whose seed is revealed (or whose moderator's secret.yaml is at hand), from its
log.yaml and the page's rules only — no rules
engine, no search: every hand commitment (§3.7–3.9, §7–9), every card taken at random (§3.4),
every die (§3.4, §4), every headline and Turn Zero superpower card commitment (§9, §15), the
bids and the bid draw (§14), and the salt of every standing order used (§16).

    python3 tools/fairness_reference.py --games DIR...   # game folders, or folders of them

Reading the log needs a YAML loader (FAIRNESS.md §11): PyYAML's BaseLoader, which keeps every
scalar a string.
"""

import pathlib

from fairness_reference import (
    Stream,
    dice_key,
    mac,
    nonce_mix,
    s,
    sha256,
    u32,
    u64,
)

SIDES = ("ussr", "us")  # the deal's order (§3.5)


class Mismatch(Exception):
    pass


def deck_key(seed):
    return mac(seed, b"twilight-pbem/deck-key/v2\0")


def commitment(salt, canonical):
    return sha256(salt + canonical).hex()


def hand_digest(seed, side, seq, hand):  # §7-9
    salt = mac(seed, b"twilight-pbem/hand-salt/v1\0" + s(side) + u64(seq))
    cards = sorted(hand)
    return commitment(salt, b"twilight-pbem/hand/v1\0" + u32(len(cards)) + bytes(cards))


PAGE = pathlib.Path(__file__).resolve().parent.parent / "schemas" / "FAIRNESS.md"


def card_numbers():
    """Section 3.8's table: each card's printed name to its number."""
    out = {}
    rows = False
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("| # | card |"):
            rows = True
        elif rows and line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out[cells[1]] = int(cells[0])
        elif rows and not line.startswith("|"):
            break
    return out


def payload(doc):
    (kind, body), = doc["payload"].items()
    return kind, body


def card_list(v):
    return [int(c) for c in (v or [])]


def named_cards(answer):
    """The cards an answer names (§3.7: each leaves the hand or the aside pile holding it)."""
    if not isinstance(answer, dict):
        return []
    if "play" in answer:
        return [int(answer["play"]["card"])]
    if "card" in answer:
        return [int(answer["card"])]
    if "cards" in answer:
        return card_list(answer["cards"])
    return []


class Game:
    """One game's cards as FAIRNESS.md §3.7 follows them: the hands, the draw deck (bottom
    first), the cards set aside; the resolution's counters."""

    def __init__(self, seed, mix):
        self.seed = seed
        self.mix = mix
        self.deck_key = deck_key(seed)
        self.hands = {"us": [], "ussr": []}
        self.deck = []
        self.aside = []
        self.aside_drawn_in = None  # the resolution that set cards aside
        self.r = 0
        self.k = {}  # requests per label in this resolution
        self.checked = {"hands": 0, "random cards": 0, "dice": 0, "shuffles": 0}

    def begin(self, r):
        self.r = r
        self.k = {}

    def request(self, label):
        k = self.k.get(label, 0)
        self.k[label] = k + 1
        return Stream(self.deck_key, self.mix, label, self.r, k)

    def where(self, card):
        for side in SIDES:
            if card in self.hands[side]:
                return side
        return None

    # -- answers ---------------------------------------------------------------------------

    def answered(self, answer):
        for c in named_cards(answer):
            side = self.where(c)
            if side:
                self.hands[side].remove(c)
            elif c in self.aside:
                self.aside.remove(c)

    # -- records ---------------------------------------------------------------------------

    def outside(self, cards, what):
        """A record's public cards come from the discard pile, the removed cards or a war
        period's: never from a hand, the deck or the cards set aside."""
        for c in cards:
            if self.where(c) or c in self.deck or c in self.aside:
                raise Mismatch("resolution %d: %s names card %d, which is in a hand or the deck" % (self.r, what, c))

    def shuffle(self, added):
        """§3.5-3.7: the undrawn deck and the cards added, ascending, permuted by §6."""
        self.outside(added, "a shuffled record")
        extra = []
        if self.aside and self.aside_drawn_in != self.r:
            extra, self.aside = self.aside, []  # Our Man in Tehran's returned cards
        cards = sorted(self.deck + added + extra)
        p = self.request("shuffle").shuffle(len(cards))
        self.deck = [cards[i] for i in p]
        self.checked["shuffles"] += 1

    def draw(self, records):
        """The top card, reshuffling first from the next record when the deck is empty."""
        if not self.deck and records and "shuffled" in records[0]:
            self.shuffle(card_list(records.pop(0)["shuffled"]))
        return self.deck.pop() if self.deck else None

    def deal(self, turn, records):
        target = 8 if turn <= 3 else 9  # §3.5
        while True:
            dealt = False
            for side in SIDES:
                if len(self.hands[side]) < target:
                    c = self.draw(records)
                    if c is not None:
                        self.hands[side].append(c)
                        dealt = True
            if not dealt:
                return

    def random_card(self, card):
        side = self.where(card)
        if side is None:
            raise Mismatch("random card %d is in no hand" % card)
        hand = sorted(self.hands[side])
        i = self.request("hand-card").below(len(hand))
        if hand[i] != card:
            raise Mismatch("random card %d, the seed gives %d" % (card, hand[i]))
        self.hands[side].remove(card)
        self.checked["random cards"] += 1

    def record(self, what, records):
        (kind, v), = what.items() if isinstance(what, dict) else ((what, None),)
        if kind == "shuffled":
            self.shuffle(card_list(v))
        elif kind == "deal":
            self.deal(int(v), records)
        elif kind == "draw":
            c = self.draw(records)
            if c is None:
                raise Mismatch("a draw from an empty deck")
            if v == "aside":
                self.aside.append(c)
                self.aside_drawn_in = self.r
            else:
                self.hands[v].append(c)
        elif kind == "to_hand":
            self.outside([int(v["card"])], "a to_hand record")
            self.hands[v["side"]].append(int(v["card"]))
        elif kind == "random_card":
            self.random_card(int(v))
        elif kind == "card":
            # A card drawn face up is the deck's top card; any other was shown from a hand.
            if self.deck and self.deck[-1] == int(v):
                self.deck.pop()

    def resolve(self, records):
        records = [dict(r) if isinstance(r, dict) else r for r in records]
        while records:
            self.record(records.pop(0), records)


def read_log(path):
    import yaml

    text = pathlib.Path(path).read_text(encoding="utf-8")
    # BaseLoader keeps every scalar a string (§11); its libyaml twin, when built, reads the same
    # way about ten times faster.
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    return [d for d in yaml.load_all(text, Loader=loader) if d]


def cancelled_seqs(docs):
    out = set()
    for d in docs:
        kind, body = payload(d)
        if kind == "takeback":
            out.update(int(c["seq"]) for c in body["cancels"])
    return out


def nonces(docs):
    """§3.2 and §14: the USSR's and the US's nonces."""
    joins = {}
    seats = {}
    for d in docs:
        kind, body = payload(d)
        if kind == "join":
            joins[body["side"]] = body["nonce"]
        elif kind == "bid":
            seats[int(body["seat"])] = body["nonce"]
        elif kind == "bid_result":
            names = payload(docs[0])[1]["seats"]
            for side in SIDES:
                joins[side] = seats[names.index(body["players"][side]) + 1]
    return joins


def check_bids(docs, seed, mix_key):
    """§14: each bid's digest and salt, and the draw of a tie."""
    digests = {}
    for d in docs:
        kind, body = payload(d)
        if kind == "bid":
            digests[int(body["seat"])] = body["digest"]
        elif kind == "bid_result":
            for b in body["bids"]:
                seat = int(b["seat"])
                salt = bytes.fromhex(b["salt"])
                if salt != mac(seed, b"twilight-pbem/bid-salt/v1\0" + u64(seat)):
                    raise Mismatch("seat %d's bid salt" % seat)
                canonical = b"twilight-pbem/bid/v1\0" + u64(seat) + s(b["side"]) + u64(int(b["influence"]))
                if commitment(salt, canonical) != digests[seat]:
                    raise Mismatch("seat %d's bid digest" % seat)
            if "draw_winner" in body:
                names = payload(docs[0])[1]["seats"]
                seat_nonces = [next(payload(e)[1]["nonce"] for e in docs if payload(e)[0] == "bid" and int(payload(e)[1]["seat"]) == n) for n in (1, 2)]
                mix = sha256(b"twilight-pbem/seats/v1\0" + s(seat_nonces[0]) + s(seat_nonces[1]))
                won = Stream(dice_key(seed, 1), mix, "bid-draw", 0, 0).below(2) + 1
                if won != int(body["draw_winner"]):
                    raise Mismatch("the bid draw")
                del names


def verify_game(folder):
    """Re-derives one finished game; returns the counts checked, or why there is nothing to
    re-derive: `recorded` (imported, no seed) or `unfinished` (the seed not revealed yet)."""
    docs = read_log(pathlib.Path(folder) / "log.yaml")
    kind, create = payload(docs[0])
    if create.get("options", {}).get("recorded") == "true":
        return "recorded"  # §2: a game recorded elsewhere has no seed and seals nothing
    reveal = [payload(d)[1]["seed"] for d in docs if payload(d)[0] == "reveal"]
    secret = pathlib.Path(folder) / "secret.yaml"
    if not reveal and secret.is_file():
        # The moderator's own secret (the bundled example game keeps it on purpose): the hands
        # so far re-derive from its seed as from a revealed one.
        import yaml

        reveal = [yaml.load(secret.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)["seed"]]
    if not reveal:
        return "unfinished"  # the seed is not revealed yet
    if create.get("options", {}).get("card_records") != "true":
        raise Mismatch("no card-flow records (a log from before FAIRNESS version 3)")
    seed = bytes.fromhex(reveal[0])
    if sha256(b"twilight-pbem/seed-commitment/v1\0" + seed).hex() != create["seed_commitment"]:
        raise Mismatch("the seed does not match its commitment")
    n = nonces(docs)
    mix = nonce_mix(n["ussr"], n["us"])
    check_bids(docs, seed, mix)
    game = Game(seed, mix)
    cancelled = cancelled_seqs(docs)
    dice_keys = 0
    decisions = 0
    orders = {}  # standing orders given: entry to digest
    sealed = []  # headline and superpower card commitments awaiting their decision
    i = 0
    joins = 0
    while i < len(docs):
        seq = int(docs[i]["seq"])
        kind, body = payload(docs[i])
        j = i + 1
        records = []
        while j < len(docs) and payload(docs[j])[0] == "chance":
            records.append(payload(docs[j])[1]["what"])
            j += 1
        joins += kind == "join"
        starts_play = (kind == "join" and joins == 2) or kind == "bid_result"
        if seq in cancelled:
            i += 1
            continue
        if starts_play or kind == "decision":
            if kind == "decision":
                decisions += 1
                game.begin(decisions)
                check_sealed(seed, sealed, body)
                game.answered(body["answer"])
            else:
                game.begin(0)
            check_dice(game, seed, dice_keys, records)
            game.resolve(records)
            i = j
            continue
        if kind == "commitment":
            if body["kind"] == "hand":
                want = hand_digest(seed, body["side"], seq, game.hands[body["side"]])
                if want != body["digest"]:
                    raise Mismatch("entry %d: the %s hand %s" % (seq, body["side"], sorted(game.hands[body["side"]])))
                game.checked["hands"] += 1
            else:
                sealed.append(body)
        elif kind == "dice_key":
            dice_keys += 1
        elif kind == "standing_order":
            orders[seq] = body["digest"]
        elif kind == "standing_order_used":
            check_order(seed, body, orders[int(body["order"])], game.checked)
        i += 1
    return game.checked


NAMES = {}


def check_order(seed, used, digest, checked):
    """§16: the order's salt, and its digest for the two kinds of decision whose answers need no
    rules: the Olympic Games and an opponent's event before or after its Operations. (A discard
    order's candidates depend on the US's Ops modifiers: its digest is left to a rules engine.)"""
    side, seq = used["side"], int(used["order"])
    salt = mac(seed, b"twilight-pbem/standing-order-salt/v1\0" + s(side) + u64(seq))
    if salt.hex() != used["salt"]:
        raise Mismatch("the salt of standing order %d" % seq)
    if not NAMES:
        NAMES.update(card_numbers())
    name, move = used["text"][len("if "):].split(":", 1)
    card = NAMES[name.strip()]
    if card == 20:
        kind = '{"choose_option":{"options":["participate","boycott"]}}'
    elif card in (10, 95):
        checked["discard orders (not checked)"] = checked.get("discard orders (not checked)", 0) + 1
        return
    else:
        kind = '{"event_first":{"card":%d}}' % card
    canonical = (
        b"twilight-pbem/standing-order/v1\0" + side.encode() + b"\0" + bytes([card])
        + move.strip().encode("utf-8") + b"\0" + kind.encode()
    )
    if commitment(salt, canonical) != digest:
        raise Mismatch("standing order %d does not match its digest" % seq)
    checked["standing orders"] = checked.get("standing orders", 0) + 1


def check_dice(game, seed, dice_keys, records):
    """§3.4: the dice of a resolution, with the key of turn 1 + the dice keys logged before."""
    key = dice_key(seed, max(1, min(10, 1 + dice_keys)))
    k = 0
    for w in records:
        if isinstance(w, dict) and "die" in w:
            if Stream(key, game.mix, "die", game.r, k).die() != int(w["die"]):
                raise Mismatch("resolution %d: die %d" % (game.r, k))
            k += 1
            game.checked["dice"] += 1


def check_sealed(seed, sealed, decision):
    """§9, §15: a decision that pairs a sealed headline or superpower card."""
    for c in sealed:
        if c["side"] != decision["side"]:
            continue
        sealed.remove(c)
        side, n = c["side"], int(c["turn"])
        if c["kind"] == "headline":
            salt = mac(seed, b"twilight-pbem/headline-salt/v1\0" + s(side) + u64(n))
            canonical = b"twilight-pbem/headline/v1\0" + s(side) + u64(n) + bytes([int(decision["answer"]["card"])])
        else:
            salt = mac(seed, b"twilight-pbem/superpower-card-salt/v1\0" + s(side) + u64(n))
            canonical = b"twilight-pbem/superpower-card/v1\0" + s(side) + u64(n) + s(decision["notation"])
        if commitment(salt, canonical) != c["digest"]:
            raise Mismatch("the %s %s does not match its commitment" % (side, c["kind"]))
        return


def game_folders(paths):
    for p in paths:
        p = pathlib.Path(p)
        if (p / "log.yaml").is_file():
            yield p
        else:
            yield from sorted(q for q in p.iterdir() if (q / "log.yaml").is_file())


def main(paths):
    try:
        import yaml
    except ImportError:
        print("reading logs needs PyYAML (python3 -m pip install pyyaml)")
        return 2
    total = {}
    skipped = {"recorded": 0, "unfinished": 0}
    bad = 0
    games = 0
    for folder in game_folders(paths):
        try:
            checked = verify_game(folder)
        except Mismatch as e:
            bad += 1
            print("%s: %s" % (folder, e))
            continue
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, yaml.YAMLError) as e:
            # A log this page does not describe (a field missing, a value of the wrong kind).
            bad += 1
            print("%s: not a log of this page's form: %s %s" % (folder, type(e).__name__, e))
            continue
        if isinstance(checked, str):
            skipped[checked] += 1
            continue
        games += 1
        for k, v in checked.items():
            total[k] = total.get(k, 0) + v
    print(
        "%d games re-derived, %d failed: %s (skipped: %d recorded, %d unfinished)"
        % (games, bad, ", ".join("%d %s" % (v, k) for k, v in total.items()),
           skipped["recorded"], skipped["unfinished"])
    )
    return 1 if bad else 0

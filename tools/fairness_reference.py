#!/usr/bin/env python3
"""An independent implementation of schemas/FAIRNESS.md, written from that page alone.

Checks every test vector of FAIRNESS.md section 12 with Python's standard library (hashlib,
hmac), so the page is shown to be enough to re-implement a verifier.

    python3 tools/fairness_reference.py           # check; exit 1 on any difference
    python3 tools/fairness_reference.py --print   # print every vector line as computed
    python3 tools/fairness_reference.py --games DIR...   # re-derive finished games
                                                         # (tools/fairness_games.py)
"""

import hashlib
import hmac
import pathlib
import sys

PAGE = pathlib.Path(__file__).resolve().parent.parent / "schemas" / "FAIRNESS.md"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def u32(x):
    return x.to_bytes(4, "big")


def u64(x):
    return x.to_bytes(8, "big")


def s(text):
    raw = text.encode("utf-8")
    return u32(len(raw)) + raw


def mac(seed, msg):
    return hmac.new(seed, msg, hashlib.sha256).digest()


def sha256(data):
    return hashlib.sha256(data).digest()


def dice_key(seed, turn):  # section 3: dk_10 = HMAC(seed, ...), dk_{t-1} = SHA-256(dk_t)
    key = mac(seed, b"twilight-pbem/dice-key/v2\0")
    for _ in range(turn, 10):
        key = sha256(key)
    return key


def is_dice_key(key, turn, end):
    for _ in range(turn):
        key = sha256(key)
    return key == end


def nonce_mix(ussr, us):
    return sha256(b"twilight-pbem/nonces/v2\0" + s(ussr) + s(us))


class Stream:
    """Section 3: HMAC blocks in counter mode, read front to back."""

    def __init__(self, key, mix, label, r, k):
        self.seed = key
        self.prefix = b"twilight-pbem/chance/v2\0" + mix + s(label) + u64(r) + u64(k)
        self.buf = b""
        self.j = 0

    def byte(self):
        if not self.buf:
            self.buf = mac(self.seed, self.prefix + u64(self.j))
            self.j += 1
        b, self.buf = self.buf[0], self.buf[1:]
        return b

    def die(self):  # section 4
        while True:
            b = self.byte()
            if b < 252:
                return b % 6 + 1

    def below(self, n):  # section 5
        limit = 2**32 - (2**32 % n)
        while True:
            x = int.from_bytes(bytes(self.byte() for _ in range(4)), "big")
            if x < limit:
                return x % n

    def shuffle(self, n):  # section 6
        p = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            p[i], p[j] = p[j], p[i]
        return p


SMALL = {}


def small_test_numbers():
    """Section 2: the seed commitment of test_seed(n) for every small test number n."""
    if not SMALL:
        for n in range(1 << 16):
            seed = sha256(b"twilight-pbem/test-seed/v2\0" + u64(n))
            SMALL[sha256(b"twilight-pbem/seed-commitment/v1\0" + seed)] = n
    return SMALL


def cards(text):
    return [int(c) for c in text.split(",")] if text else []


def opening_deal(key, mix, deck_cards):
    """Section 3.3: shuffle the sorted opening deck (resolution 0, k 0); the permutation's last
    position is the top; deal one card at a time from the top, USSR first, 8 each."""
    p = Stream(key, mix, "shuffle", 0, 0).shuffle(len(deck_cards))
    deck = [deck_cards[i] for i in p]  # bottom first
    hands = {"ussr": [], "us": []}
    for _ in range(8):
        for side in ("ussr", "us"):
            hands[side].append(deck.pop())
    j = lambda xs: ",".join(str(x) for x in xs)
    return "ussr=%s us=%s deck=%s" % (j(sorted(hands["ussr"])), j(sorted(hands["us"])), j(reversed(deck)))


def deal(key, mix, r, k, turn, hands, deck, then):
    """Section 3.7: fill the hands (USSR first) one card at a time from the top of the deck
    (bottom first), to 8 cards in turns 1-3 and 9 after; when the deck is empty, the next
    record's cards are shuffled in (shuffle k of resolution r)."""
    target = 8 if turn <= 3 else 9
    pending = [then]
    while True:
        dealt = False
        for hand in hands:
            if len(hand) < target:
                if not deck and pending:
                    added = sorted(pending.pop())
                    p = Stream(key, mix, "shuffle", r, k).shuffle(len(added))
                    deck = [added[i] for i in p]
                if deck:
                    hand.append(deck.pop())
                    dealt = True
        if not dealt:
            break
    j = lambda xs: ",".join(str(x) for x in xs)
    return "ussr=%s us=%s deck=%s" % (j(sorted(hands[0])), j(sorted(hands[1])), j(reversed(deck)))


def compute(fn, a):
    seed = bytes.fromhex(a["seed"]) if "seed" in a else None
    key = bytes.fromhex(a["key"]) if "key" in a else None
    mix = bytes.fromhex(a["mix"]) if "mix" in a else None
    words = lambda xs: " ".join(str(x) for x in xs) or "(none)"
    label = a.get("label", {"turn_zero_crisis": "die"}.get(fn, "shuffle"))
    stream = lambda k=None: Stream(key, mix, label, int(a["r"]), int(a["k"]) if k is None else k)
    if fn == "seed_commitment":
        return sha256(b"twilight-pbem/seed-commitment/v1\0" + seed).hex()
    if fn == "dice_key":
        return dice_key(seed, int(a["turn"])).hex()
    if fn == "dice_chain_end":
        return dice_key(seed, 0).hex()
    if fn == "is_dice_key":
        return str(is_dice_key(key, int(a["turn"]), bytes.fromhex(a["end"]))).lower()
    if fn == "deck_key":
        return mac(seed, b"twilight-pbem/deck-key/v2\0").hex()
    if fn == "nonce_mix":
        return nonce_mix(a["ussr"], a["us"]).hex()
    if fn == "test_seed":
        return sha256(b"twilight-pbem/test-seed/v2\0" + u64(int(a["n"]))).hex()
    if fn == "small_test_number":  # section 2: 0 <= n < 65536
        return str(small_test_numbers().get(bytes.fromhex(a["commitment"]), "none"))
    if fn == "stream":
        st = stream()
        return bytes(st.byte() for _ in range(int(a["bytes"]))).hex()
    if fn == "die_roll":
        lo, hi = (int(x) for x in a["k"].split(".."))
        return words(stream(k).die() for k in range(lo, hi))
    if fn == "die_stream":
        st = stream()
        return words(st.die() for _ in range(int(a["count"])))
    if fn == "uniform_index":
        return str(stream().below(int(a["n"])))
    if fn == "shuffle":
        return words(stream().shuffle(int(a["n"])))
    if fn == "opening_deal":
        return opening_deal(key, mix, cards(a["cards"]))
    if fn == "hand_salt":
        return mac(seed, b"twilight-pbem/hand-salt/v1\0" + s(a["side"]) + u64(int(a["seq"]))).hex()
    if fn == "headline_salt":
        return mac(seed, b"twilight-pbem/headline-salt/v1\0" + s(a["side"]) + u64(int(a["turn"]))).hex()
    if fn == "canonical_hand":
        c = sorted(cards(a["cards"]))
        return (b"twilight-pbem/hand/v1\0" + u32(len(c)) + bytes(c)).hex()
    if fn == "canonical_headline":
        return (b"twilight-pbem/headline/v1\0" + s(a["side"]) + u64(int(a["turn"])) + bytes([int(a["card"])])).hex()
    if fn == "commitment":
        return sha256(bytes.fromhex(a["salt"]) + bytes.fromhex(a["canonical"])).hex()
    if fn == "reply_token":
        tag = mac(seed, b"twilight-pbem/reply-token/v1\0" + s(a["game_id"]) + u64(int(a["seq"])) + s(a["side"]))
        bits = int.from_bytes(tag[:10], "big")
        return "".join(CROCKFORD[(bits >> (5 * (15 - i))) & 31] for i in range(16))
    if fn == "bid_salt":  # section 14
        return mac(seed, b"twilight-pbem/bid-salt/v1\0" + u64(int(a["seat"]))).hex()
    if fn == "canonical_bid":
        return (b"twilight-pbem/bid/v1\0" + u64(int(a["seat"])) + s(a["side"]) + u64(int(a["influence"]))).hex()
    if fn == "seat_mix":
        return sha256(b"twilight-pbem/seats/v1\0" + s(a["seat1"]) + s(a["seat2"])).hex()
    if fn == "bid_draw":
        return str(Stream(key, mix, "bid-draw", 0, 0).below(2))
    if fn == "superpower_card_salt":  # section 15
        return mac(seed, b"twilight-pbem/superpower-card-salt/v1\0" + s(a["side"]) + u64(int(a["crisis"]))).hex()
    if fn == "canonical_superpower_card":
        return (b"twilight-pbem/superpower-card/v1\0" + s(a["side"]) + u64(int(a["crisis"])) + s(a["card"])).hex()
    if fn == "deal":  # section 3.7
        hands = [cards(a["ussr"]), cards(a["us"])]
        return deal(key, mix, int(a["r"]), int(a["k"]), int(a["turn"]), hands, cards(a["deck"]), cards(a["then"]))
    if fn == "shuffle_in":  # section 3.5
        c = sorted(cards(a["deck"]) + cards(a["added"]))
        p = stream().shuffle(len(c))
        return ",".join(str(c[i]) for i in reversed(p))
    if fn == "standing_order_salt":  # section 16
        return mac(seed, b"twilight-pbem/standing-order-salt/v1\0" + s(a["side"]) + u64(int(a["seq"]))).hex()
    if fn == "canonical_standing_order":
        move = a["move"].replace("%20", " ").strip().encode("utf-8")
        return (
            b"twilight-pbem/standing-order/v1\0" + a["side"].encode() + b"\0" + bytes([int(a["card"])])
            + move + b"\0" + a["kind"].encode("utf-8")
        ).hex()
    if fn == "turn_zero_crisis":  # section 15: left[(d - 1) mod n]
        left = a["left"].split(",")
        return left[(stream().die() - 1) % len(left)]
    if fn == "crisis_result":
        mods = {"Kennan": 1, "Acheson": 1, "Marshall": 2, "Andropov": -1, "Khrushchev": -1, "Molotov": -2}
        us, ussr = a["us"], a["ussr"]
        us_mod = 0 if ussr == "Beria" else mods.get(us, 0)
        ussr_mod = 0 if us == "Dulles" else mods.get(ussr, 0)
        return str(min(6, max(1, int(a["die"]) + us_mod + ussr_mod)))
    if fn == "entry_hash":
        return sha256(b"twilight-log v1\0" + bytes.fromhex(a["document"])).hex()
    raise ValueError("unknown function " + fn)


def vector_lines(text):
    inside = False
    for line in text.splitlines():
        t = line.strip()
        if inside:
            if t.startswith("```"):
                inside = False
            elif t and not t.startswith("#"):
                yield t
        elif t == "```vectors":
            inside = True


def main():
    if "--games" in sys.argv:
        import fairness_games

        return fairness_games.main(sys.argv[sys.argv.index("--games") + 1 :])
    printing = "--print" in sys.argv
    bad = 0
    count = 0
    for line in vector_lines(PAGE.read_text(encoding="utf-8")):
        call, expected = line.split(" -> ", 1)
        fn, *args = call.split()
        got = compute(fn, dict(arg.split("=", 1) for arg in args))
        count += 1
        if printing:
            print(f"{call} -> {got}")
        elif got != expected.strip():
            bad += 1
            print(f"MISMATCH {call}\n  page: {expected.strip()}\n  here: {got}")
    if not printing:
        print(f"{count - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

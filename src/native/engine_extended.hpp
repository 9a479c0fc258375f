// The compiled core for two decks (104 cards, 2-8 players) and for jokers, valueless or
// wild (one deck or two): big2.variant.generic's reading of a rule set with decks=2 or
// jokers; wild jokers are read by engine_wild.hpp and listed by engine_wild_list.hpp.
//
// A card keeps the Python number: rank * 4 + suit for the first deck (0..51), the
// same plus 54 for its copy in the second deck (54..105), the jokers 52, 53 (and 106,
// 107 with two decks); a hand is a 128-bit mask.
// Copies of a card are alike: a hand's plays are listed once per set of card *names*
// (each name held once or twice), each with the lowest-numbered copies the hand
// holds, and ordered as big2.variant.generic_sets orders them: by power, then by the
// names (the set of names as a 52-bit mask, then the set of names held twice).
//
// The one-deck core (engine.hpp) is not touched: its tables give the powers of
// every play of distinct names (straights, flushes, five-card shapes by rank), and
// a table of one-rank plays by the multiset of suits (names and names twice) is
// compiled by Python from the generic engine's own readings.  The deal's
// sequencing is the one-deck State's, with up to eight seats.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "engine.hpp"
#include "engine_wild.hpp"

namespace big2w {

using big2n::Kind;
using big2n::Tables;
using big2n::lowbit;
using big2n::nib;
using big2n::popcount;
using u64 = uint64_t;
using WMask = unsigned __int128;

constexpr int kCopy = 54;                     // the second deck's offset (big2.cards.DECK_SIZE)
constexpr u64 k52 = (u64(1) << 52) - 1;
constexpr int kSeats = 8;
constexpr int kWideCards = 104;
constexpr int kFiveOfAKind = 15;            // big2.variant.kinds.Kind.FIVE_OF_A_KIND

inline u64 first(WMask m) { return u64(m) & k52; }
inline u64 second(WMask m) { return u64(m >> kCopy) & k52; }
inline WMask join(u64 a, u64 b) { return WMask(a) | (WMask(b) << kCopy); }
constexpr WMask kWideDeck = (WMask(k52) << kCopy) | WMask(k52);
constexpr u64 k54 = (u64(1) << kCopy) - 1;
// Every card number of two decks with their jokers (52, 53, 106, 107): what a mask from
// Python may hold; the rule set's own deck is WideTables::deck.
constexpr WMask kWideAll = (WMask(k54) << kCopy) | WMask(k54);
// The joker names (bits 52, 53) *m* holds, either copy.
inline u64 joker_names(WMask m) { return ((u64(m) | u64(m >> kCopy)) >> 52 & 3) << 52; }
inline int wpop(WMask m) { return popcount(u64(m)) + popcount(u64(m >> 64)); }
inline int wlow(WMask m) { return u64(m) ? lowbit(u64(m)) : 64 + lowbit(u64(m >> 64)); }
// The cards of the names *nm* (a 52-bit mask) that *a* (the first copies held) holds
// first: the lowest-numbered copy of each name.
inline WMask lowest_copies(u64 nm, u64 a) { return join(nm & a, nm & ~a); }

// A classified play: its cards, its names and the names it holds twice.
struct WPlay {
  WMask mask = 0;
  int64_t power = 0;
  int kind = 0;
  u64 names = 0, dups = 0;
  bool operator<(const WPlay& o) const {
    if (power != o.power) return power < o.power;
    if (names != o.names) return names < o.names;
    return dups < o.dups;
  }
};

// A rule set for two decks: the one-deck tables (plays of distinct names, the trick
// and scoring flags) and what differs.
struct WideTables {
  Tables base;                     // compiled for one deck and four players (plays, flags)
  int64_t rank_power[13][256] = {};  // one-rank plays (1-5 cards) by names | names-twice << 4
  bool rank_ok[13][256] = {};        // whether that multiset is a play
  int players = 6;
  WMask deck = kWideDeck;            // the rule set's cards (valueless jokers: 52, 53, ...)
  bool valueless = false;            // valueless jokers: singles of power joker_power
  int64_t joker_power[2] = {};       // the red and the black joker's power alone
  WildKeys wk;                       // wild jokers (wk.on): what their readings need
  bool one_deck = true;              // no second deck: a hand's plays only shrink
  int after[kSeats][kSeats] = {};
  int multiplier[kWideCards + 1] = {};

  // The readings of *p*'s cards (wild jokers), strongest first, into *rd*; how many.
  // Sets p.names and p.dups (the jokers' names included).
  int read_wild(WPlay& p, Reading* rd) const {
    u64 a = u64(p.mask) & k54, b = u64(p.mask >> kCopy) & k54;
    p.names = a | b; p.dups = a & b;
    int n = wpop(p.mask);
    if (n > 5) return 0;
    u64 nat = p.names & k52, twice = p.dups & k52;
    return wild_reads(wk, base, nat, twice, n - popcount(nat) - popcount(twice), rd);
  }

  // Whether reading *r* of a play of *size* cards may be played on *last*.
  bool beats(const Reading& r, int size, const WPlay& last) const {
    if (base.same_kind && size == 5 && r.kind != last.kind) return false;
    return r.power > last.power || (r.power == last.power && base.play_equal);
  }

  // *p* (a set holding a wild joker and another card) read as its strongest reading that
  // may be played on *last*; false when none may.
  bool wild_on(WPlay& p, const WPlay& last) const {
    Reading rd[kMaxReads];
    int k = read_wild(p, rd), size = wpop(p.mask);
    for (int i = 0; i < k; ++i)
      if (beats(rd[i], size, last)) { p.kind = rd[i].kind; p.power = rd[i].power; return true; }
    return false;
  }

  // The play *m* makes played on *last* (nullptr: a lead): classify(), and with wild
  // jokers the strongest reading that may be played there.
  WPlay classify_on(WMask m, const WPlay* last) const {
    WPlay p = classify(m);
    if (last && wk.on && p.kind && joker_names(m) && wpop(m) > 1) {
      WPlay q = p;
      if (wild_on(q, *last)) return q;
    }
    return p;
  }

  // The kind of a one-rank play of *n* cards.
  static int rank_kind(int n) {
    return n == 1 ? big2n::SINGLE : n == 2 ? big2n::PAIR : n == 3 ? big2n::TRIPLE :
           n == 4 ? big2n::FOUR_OF_A_KIND : kFiveOfAKind;
  }

  // The play *m* makes, or kind 0.
  WPlay classify(WMask m) const {
    WPlay p; p.mask = m;
    if (!m || (m & ~deck)) return p;
    if (u64 j = joker_names(m)) {  // a valueless joker is a single, in no other play
      if ((valueless || wk.on) && wpop(m) == 1) {
        p.names = j; p.kind = big2n::SINGLE; p.power = joker_power[lowbit(j) - 52];
      } else if (wk.on) {  // wild: the strongest reading
        Reading rd[kMaxReads];
        if (read_wild(p, rd)) { p.kind = rd[0].kind; p.power = rd[0].power; }
      }
      return p;
    }
    u64 a = first(m), b = second(m);
    p.names = a | b; p.dups = a & b;
    int n = wpop(m);
    if (n == 0 || n > 5) return p;
    int cnt[13]; unsigned ranks = 0; int nr = 0;
    for (int r = 0; r < 13; ++r) {
      cnt[r] = popcount(nib(p.names, r)) + popcount(nib(p.dups, r));
      if (cnt[r]) { ranks |= 1u << r; ++nr; }
    }
    auto sub = [&](int r) { return nib(p.names, r) | nib(p.dups, r) << 4; };
    if (nr == 1) {  // one rank: a single .. four of a kind, five of a kind
      int r = lowbit(ranks);
      if (rank_ok[r][sub(r)]) { p.kind = rank_kind(n); p.power = rank_power[r][sub(r)]; }
      return p;
    }
    if (n == 4) {
      if (base.two_pairs && nr == 2) {
        int lo = lowbit(ranks), hi = 31 - __builtin_clz(ranks);
        if (cnt[lo] == 2 && cnt[hi] == 2) { p.kind = big2n::TWO_PAIRS; p.power = rank_power[hi][sub(hi)]; }
      }
      return p;
    }
    if (n != 5) return p;
    if (!p.dups && nr == 5) {  // distinct names: the one-deck reading
      big2n::Play q = base.classify(p.names);
      p.kind = q.kind; p.power = q.power;
      return p;
    }
    int top = base.top_card ? 1 : 0;
    int four = -1, trip = -1, lo_pair = -1, hi_pair = -1, ones = 0;
    for (int r = 0; r < 13; ++r) {
      if (cnt[r] == 4) four = r;
      else if (cnt[r] == 3) trip = r;
      else if (cnt[r] == 2) { if (lo_pair < 0) lo_pair = r; else hi_pair = r; }
      else if (cnt[r] == 1) ++ones;
    }
    if (four >= 0 && ones == 1) {
      if (base.four_kicker) { p.kind = big2n::FOUR_KICKER;
        p.power = top ? base.top_of(p.names) : base.four_kicker_power[four]; }
    } else if (trip >= 0 && lo_pair >= 0) {
      p.kind = big2n::FULL_HOUSE;
      p.power = top ? base.top_of(p.names) : base.full_house_power[trip];
    } else if (trip >= 0 && ones == 2) {
      if (base.five_trips) { p.kind = big2n::FIVE_TRIPS;
        p.power = top ? base.top_of(p.names) : base.five_trips_power[trip]; }
    } else if (hi_pair >= 0 && ones == 1 && base.five_two_pairs &&
               (base.five_two_pairs == 1 || hi_pair - lo_pair == 1)) {
      p.kind = big2n::FIVE_TWO_PAIRS;
      p.power = top ? base.top_of(p.names) : (base.five_two_pairs_base | rank_power[hi_pair][sub(hi_pair)]);
    }
    return p;
  }
};

// A hand's plays by size (1..5), each group sorted (see WPlay::operator<).
struct WideHandPlays {
  std::array<std::vector<WPlay>, 6> groups;
  void clear() { for (auto& g : groups) g.clear(); }
};

inline void list_wild(const WideTables& t, WMask hand, WideHandPlays& out);

// Every play of *hand* under *t*, once per set of names.
BIG2_HOT inline void generate(const WideTables& t, WMask hand, WideHandPlays& out) {
  out.clear();
  const Tables& bt = t.base;
  const bool top = bt.top_card;
  u64 a = first(hand), names = a | second(hand), dups = a & second(hand);
  auto& g5 = out.groups[5];
  std::vector<WPlay> pairs, trips, quads;
  unsigned rmask = 0;
  for (int r = 0; r < 13; ++r) {
    unsigned nn = nib(names, r), dd = nib(dups, r);
    if (!nn) continue;
    rmask |= 1u << r;
    unsigned na = nib(a, r);
    for (unsigned N = nn; N; N = (N - 1) & nn)
      for (unsigned D = N & dd;; D = (D - 1) & (N & dd)) {
        int size = __builtin_popcount(N) + __builtin_popcount(D);
        if (size <= 5) {
          WPlay p;
          p.names = u64(N) << (4 * r); p.dups = u64(D) << (4 * r);
          p.mask = join(u64(N & na) << (4 * r), u64((N & ~na) | D) << (4 * r));
          p.power = t.rank_power[r][N | D << 4];
          p.kind = WideTables::rank_kind(size);
          if (t.rank_ok[r][N | D << 4]) out.groups[size].push_back(p);
          if (size == 2) pairs.push_back(p);
          else if (size == 3) trips.push_back(p);
          else if (size == 4) quads.push_back(p);
        }
        if (!D) break;
      }
  }
  if (t.valueless || t.wk.on)
    for (int j = 0; j < 2; ++j) {  // a joker held: one single per name, the lowest copy
      WMask card = hand & ((WMask(1) << (52 + j)) | (WMask(1) << (kCopy + 52 + j)));
      if (!card) continue;
      WPlay p; p.mask = card & (~card + 1); p.names = u64(1) << (52 + j);
      p.kind = big2n::SINGLE; p.power = t.joker_power[j];
      out.groups[1].push_back(p);
    }
  auto rank_of = [](const WPlay& p) { return lowbit(p.names) >> 2; };
  auto merge = [](const WPlay& x, const WPlay& y, int kind, int64_t power) {
    WPlay p; p.mask = x.mask | y.mask; p.names = x.names | y.names; p.dups = x.dups | y.dups;
    p.kind = kind; p.power = power; return p;
  };
  if (bt.two_pairs)
    for (const WPlay& hi : pairs)
      for (const WPlay& lo : pairs)
        if (rank_of(hi) > rank_of(lo)) out.groups[4].push_back(merge(hi, lo, big2n::TWO_PAIRS, hi.power));
  if (popcount(names) + popcount(dups) >= 5) {
    // straights and straight flushes: one name of each rank of a sequence
    for (int i = 0; i < bt.n_straights; ++i) {
      unsigned sm = bt.straight_mask[i];
      if ((rmask & sm) != sm) continue;
      int rk[5]; int k = 0;
      for (unsigned x = sm; x; x &= x - 1) rk[k++] = __builtin_ctz(x);
      int dec = bt.straight_decide[i];
      for (unsigned s0 = nib(names, rk[0]); s0; s0 &= s0 - 1)
        for (unsigned s1 = nib(names, rk[1]); s1; s1 &= s1 - 1)
          for (unsigned s2 = nib(names, rk[2]); s2; s2 &= s2 - 1)
            for (unsigned s3 = nib(names, rk[3]); s3; s3 &= s3 - 1)
              for (unsigned s4 = nib(names, rk[4]); s4; s4 &= s4 - 1) {
                unsigned sa = __builtin_ctz(s0), sb = __builtin_ctz(s1), sc = __builtin_ctz(s2),
                         sd = __builtin_ctz(s3), se = __builtin_ctz(s4);
                u64 nm = u64(1) << (4 * rk[0] + sa) | u64(1) << (4 * rk[1] + sb) |
                         u64(1) << (4 * rk[2] + sc) | u64(1) << (4 * rk[3] + sd) |
                         u64(1) << (4 * rk[4] + se);
                bool flush = sa == sb && sb == sc && sc == sd && sd == se;
                WPlay p; p.names = nm; p.mask = lowest_copies(nm, a);
                p.kind = flush ? big2n::STRAIGHT_FLUSH : big2n::STRAIGHT;
                p.power = top ? bt.top_of(nm) : bt.straight_power[flush][i][lowbit(nib(nm, dec))];
                g5.push_back(p);
              }
    }
    // flushes: five names of one suit that are not a straight
    for (int s = 0; s < 4; ++s) {
      unsigned ranks = 0;
      for (int r = 0; r < 13; ++r) if (nib(names, r) >> s & 1) ranks |= 1u << r;
      if (__builtin_popcount(ranks) < 5) continue;
      int rl[13]; int k = 0;
      for (unsigned x = ranks; x; x &= x - 1) rl[k++] = __builtin_ctz(x);
      for (int i0 = 0; i0 < k; ++i0)
        for (int i1 = i0 + 1; i1 < k; ++i1)
          for (int i2 = i1 + 1; i2 < k; ++i2)
            for (int i3 = i2 + 1; i3 < k; ++i3)
              for (int i4 = i3 + 1; i4 < k; ++i4) {
                unsigned rm = 1u << rl[i0] | 1u << rl[i1] | 1u << rl[i2] | 1u << rl[i3] | 1u << rl[i4];
                if (bt.straight_index(rm) >= 0) continue;
                u64 nm = u64(1) << (4 * rl[i0] + s) | u64(1) << (4 * rl[i1] + s) |
                         u64(1) << (4 * rl[i2] + s) | u64(1) << (4 * rl[i3] + s) |
                         u64(1) << (4 * rl[i4] + s);
                WPlay p; p.kind = big2n::FLUSH; p.names = nm; p.mask = lowest_copies(nm, a);
                p.power = top ? bt.top_of(nm) : bt.flush_power[s * 8192 + rm];
                g5.push_back(p);
              }
    }
    // full houses: three cards of one rank and two of another
    for (const WPlay& tr : trips)
      for (const WPlay& pr : pairs)
        if (rank_of(tr) != rank_of(pr))
          g5.push_back(merge(tr, pr, big2n::FULL_HOUSE,
                             top ? bt.top_of(tr.names | pr.names) : bt.full_house_power[rank_of(tr)]));
    // one name of a rank other than those of *used*, each once
    auto singles_off = [&](u64 used_ranks) { return names & ~used_ranks; };
    auto rank_bits = [](int r) { return u64(0xF) << (4 * r); };
    auto single = [&](int c) {
      WPlay p; p.names = u64(1) << c; p.mask = lowest_copies(p.names, a); return p;
    };
    if (bt.five_trips)
      for (const WPlay& tr : trips) {
        int r = rank_of(tr);
        for (u64 x = singles_off(rank_bits(r)); x; x &= x - 1)
          for (u64 y = x & (x - 1); y; y &= y - 1) {
            int c1 = lowbit(x), c2 = lowbit(y);
            if ((c1 >> 2) == (c2 >> 2)) continue;
            WPlay p = merge(merge(tr, single(c1), 0, 0), single(c2), big2n::FIVE_TRIPS, 0);
            p.power = top ? bt.top_of(p.names) : bt.five_trips_power[r];
            g5.push_back(p);
          }
      }
    if (bt.five_two_pairs)
      for (const WPlay& hi : pairs)
        for (const WPlay& lo : pairs) {
          int h = rank_of(hi), l = rank_of(lo);
          if (h <= l || (bt.five_two_pairs == 2 && h - l != 1)) continue;
          for (u64 x = singles_off(rank_bits(h) | rank_bits(l)); x; x &= x - 1) {
            WPlay p = merge(merge(hi, lo, 0, 0), single(lowbit(x)), big2n::FIVE_TWO_PAIRS, 0);
            p.power = top ? bt.top_of(p.names) : (bt.five_two_pairs_base | hi.power);
            g5.push_back(p);
          }
        }
    if (bt.four_kicker)
      for (const WPlay& q : quads) {
        int r = rank_of(q);
        for (u64 x = singles_off(rank_bits(r)); x; x &= x - 1) {
          WPlay p = merge(q, single(lowbit(x)), big2n::FOUR_KICKER, 0);
          p.power = top ? bt.top_of(p.names) : bt.four_kicker_power[r];
          g5.push_back(p);
        }
      }
  }
  if (t.wk.on) list_wild(t, hand, out);
  for (int s = 1; s <= 5; ++s) std::sort(out.groups[s].begin(), out.groups[s].end());
}

// The plays of *plays* that may follow *last* (no pass), in group order.
template <class F>
inline void for_each_follow(const WideTables& t, const WideHandPlays& plays, const WPlay& last,
                            F&& f) {
  int size = wpop(last.mask);
  if (size < 1 || size > 5) return;
  const auto& g = plays.groups[size];
  if (t.valueless && size == 1) {  // a valueless joker beats, and is beaten by, any single
    if (last.power < 0) {
      for (const WPlay& p : g) f(p);
      return;
    }
    for (const WPlay& p : g) {  // the jokers (power -1) sort first
      if (p.power >= 0) break;
      f(p);
    }
  }
  WPlay key; key.power = last.power;
  key.names = key.dups = t.base.play_equal ? 0 : ~u64(0);
  auto it = std::upper_bound(g.begin(), g.end(), key);
  bool kind_only = t.base.same_kind && size == 5;
  for (; it != g.end(); ++it) {
    if (t.wk.on && size > 1 && joker_names(it->mask)) {  // the reading that may follow
      WPlay q = *it;
      if (t.wild_on(q, last)) f(q);
    } else if (!kind_only || it->kind == last.kind) {
      f(*it);
    }
  }
}

}  // namespace big2w

#include "engine_wild_list.hpp"

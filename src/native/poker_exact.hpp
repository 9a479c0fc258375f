// Exact equity by board class (issue 43): hold'em and Omaha showdowns counted once per
// class of boards that give every player the same hand, for big2.poker.equity.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "poker.hpp"

namespace big2poker {

// Boards that differ only in suits nobody can make a flush in (issue 43).  A hand's
// value depends on its suits only through a flush, and a hold'em flush needs three or
// more board cards of its suit, which at most one suit has on a five-card board.  So:
//
//  A. every board is tallied by its rank multiset alone, with flushes ignored (the rank
//     hash, no flush test): each multiset of the dealt ranks once, weighted by how many
//     boards have it (the product over ranks of C(cards of that rank left, times dealt));
//  B. then, for the boards with three or more cards of a suit s, which a player can
//     complete to a flush, the difference between the true showdown and A's is added:
//     the dealt cards of suit s enumerated one by one (they decide the flush), the others
//     (at most two, in other suits, which cannot flush) by rank multiset with weights.
//
// Each board is counted once in A and, when a flush could matter, corrected once in B
// (its flush suit is unique), so the counts equal those of holdem_exact_each exactly;
// AhKh vs QsQd values 6,061 rank multisets and 35,343 flush classes (twice each) instead
// of 1,712,304 boards.

// C(n, k) for n, k <= 13 (the cards of one suit or one rank left in the deck).
inline int64_t small_binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  int64_t r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

// Every multiset of *need* ranks with at most cap[r] of rank r: (rank key sum, weight =
// product of C(cap[r], m_r)).
inline void rank_multisets(const int* cap, int need, std::vector<std::pair<uint32_t, int64_t>>& out,
                           int r = 0, uint32_t key = 0, int64_t weight = 1) {
  if (need == 0) {
    out.push_back({key, weight});
    return;
  }
  if (r == 13) return;
  for (int m = 0; m <= std::min(need, cap[r]); ++m)
    rank_multisets(cap, need - m, out, r + 1, key + uint32_t(m) * kRankKey7[r],
                   weight * small_binom(cap[r], m));
}

// Values of each player's seven cards, ignoring flushes (the rank hash alone).
inline void values_without_flush(const Tables& t, int players, const uint64_t* hk,
                                 uint64_t bk, uint16_t* v) {
  for (int i = 0; i < players; ++i) v[i] = t.seven(uint32_t(bk + hk[i]));
}

BIG2_HOT inline void holdem_exact(const Tables& t, const int* board, int nboard, const int* holes,
                                  int players, uint64_t used, Counts& out) {
  int need = 5 - nboard;
  if (need == 0) {
    holdem_exact_each(t, board, nboard, holes, players, used, out);
    return;
  }
  uint64_t hk[32], hb[32];
  int hole_suit[32][4] = {};
  for (int i = 0; i < players; ++i) {
    hk[i] = t.key[holes[2 * i]] + t.key[holes[2 * i + 1]];
    hb[i] = t.bits[holes[2 * i]] | t.bits[holes[2 * i + 1]];
    ++hole_suit[i][holes[2 * i] & 3], ++hole_suit[i][holes[2 * i + 1] & 3];
  }
  uint64_t bk = kSuitInit, bb = 0;
  int board_suit[4] = {};
  for (int j = 0; j < nboard; ++j) bk += t.key[board[j]], bb |= t.bits[board[j]], ++board_suit[board[j] & 3];
  int left[13] = {};         // cards of each rank left to deal
  int left_suit[4][13] = {};  // ... of each rank and suit
  for (int c = 0; c < 52; ++c)
    if (!(used >> c & 1)) ++left[rank_of(c)], ++left_suit[c & 3][rank_of(c)];
  uint16_t v[32], w[32];
  std::vector<std::pair<uint32_t, int64_t>> ms;
  // A: every board by its ranks, flushes ignored
  rank_multisets(left, need, ms);
  for (auto& m : ms) {
    values_without_flush(t, players, hk, bk + m.first, v);
    tally(v, players, m.second, out);
    out.deals += m.second;
  }
  // B: the boards with three or more cards of suit s, where some player can flush
  for (int s = 0; s < 4; ++s) {
    int suited[13], ns = 0, others[13];
    for (int r = 0; r < 13; ++r) {
      if (left_suit[s][r]) suited[ns++] = r;
      others[r] = left[r] - left_suit[s][r];
    }
    int most_held = 0;
    for (int i = 0; i < players; ++i) most_held = std::max(most_held, hole_suit[i][s]);
    for (int cs = std::max(0, 3 - board_suit[s]); cs <= std::min(need, ns); ++cs) {
      if (board_suit[s] + cs + most_held < 5) continue;  // nobody reaches five of suit s
      ms.clear();
      rank_multisets(others, need - cs, ms);
      // every cs-subset of the suited cards left (ranks suited[...], suit s)
      int idx[5];
      for (int j = 0; j < cs; ++j) idx[j] = j;
      while (true) {
        uint64_t k = bk, b = bb;
        for (int j = 0; j < cs; ++j) {
          int card = ((suited[idx[j]] + 12) % 13) * 4 + s;  // poker rank back to big2's card
          k += t.key[card], b |= t.bits[card];
        }
        bool flush = false;
        for (int i = 0; i < players && !flush; ++i) flush = (k + hk[i]) & kFlushBits;
        if (flush)
          for (auto& m : ms) {
            for (int i = 0; i < players; ++i) v[i] = t.from_key<7>(k + m.first + hk[i], b | hb[i]);
            values_without_flush(t, players, hk, k + m.first, w);
            tally(v, players, m.second, out);
            tally(w, players, -m.second, out);
          }
        int j = cs - 1;
        while (j >= 0 && idx[j] == ns - cs + j) --j;
        if (j < 0) break;
        ++idx[j];
        for (int q = j + 1; q < cs; ++q) idx[q] = idx[q - 1] + 1;
      }
    }
  }
}

// ---- Omaha: two hole cards and three board cards, exactly --------------------------

// A full board as the Omaha showdown needs it: the rank of each card and which cards are
// of the suit being followed (bit j: card j), with the number of boards it stands for.
struct RankBoard {
  int rank[5];
  unsigned suited = 0;
  int64_t weight = 1;
};

// One player's hand for the Omaha loop: each of the six hole pairs as a rank key, and its
// rank bits when both cards are of the followed suit (else 0).
struct OmahaHole {
  uint32_t key[6];
  uint32_t suited_bits[6];
};

inline OmahaHole omaha_hole(const int* cards, int suit) {
  static constexpr int kPair[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  OmahaHole h;
  for (int p = 0; p < 6; ++p) {
    int a = cards[kPair[p][0]], b = cards[kPair[p][1]];
    h.key[p] = kRankKey7[rank_of(a)] + kRankKey7[rank_of(b)];
    bool both = (a & 3) == suit && (b & 3) == suit;
    h.suited_bits[p] = both ? (1u << rank_of(a)) | (1u << rank_of(b)) : 0;
  }
  return h;
}

// Best value of two hole cards and three board cards; flushes only with *flush* (and then
// only of the followed suit, the only one a board with three of it allows).
inline uint16_t omaha_value(const Tables& t, const OmahaHole& h, const RankBoard& b, bool flush) {
  static constexpr int kTriple[10][3] = {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}, {0, 2, 3}, {0, 2, 4},
                                         {0, 3, 4}, {1, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4}};
  uint16_t best = 0;
  for (auto& tr : kTriple) {
    uint32_t key = kRankKey7[b.rank[tr[0]]] + kRankKey7[b.rank[tr[1]]] + kRankKey7[b.rank[tr[2]]];
    bool suited = flush && (b.suited >> tr[0] & 1) && (b.suited >> tr[1] & 1) &&
                  (b.suited >> tr[2] & 1);
    uint32_t bits = (1u << b.rank[tr[0]]) | (1u << b.rank[tr[1]]) | (1u << b.rank[tr[2]]);
    for (int p = 0; p < 6; ++p) {
      uint16_t v = suited && h.suited_bits[p] ? t.flush[h.suited_bits[p] | bits]
                                              : t.five(h.key[p] + key);
      best = std::max(best, v);
    }
  }
  return best;
}

// Every multiset of *need* ranks (at most cap[r] of rank r) appended to the ranks of *b*
// from position *at*, each with its weight, into *out*.
inline void rank_boards(const int* cap, int need, RankBoard b, int at, int r,
                        std::vector<RankBoard>& out) {
  if (need == 0) {
    out.push_back(b);
    return;
  }
  if (r == 13) return;
  int64_t w = b.weight;
  for (int m = 0; m <= std::min(need, cap[r]); ++m) {
    b.weight = w * small_binom(cap[r], m);
    for (int j = 0; j < m; ++j) b.rank[at + j] = r;
    rank_boards(cap, need - m, b, at + m, r + 1, out);
  }
}

// omaha_exact: holdem_exact's board classes for Omaha high (four hole cards each, holes:
// 4 per player).  A: every board by its ranks, no flushes; B: for each suit s, the boards
// with three or more cards of s where a player holds two of s, the true showdown minus A's.
BIG2_HOT inline void omaha_exact(const Tables& t, const int* board, int nboard, const int* holes,
                                 int players, uint64_t used, Counts& out) {
  int need = 5 - nboard;
  int left[13] = {}, left_suit[4][13] = {};
  for (int c = 0; c < 52; ++c)
    if (!(used >> c & 1)) ++left[rank_of(c)], ++left_suit[c & 3][rank_of(c)];
  std::vector<OmahaHole> hs(static_cast<size_t>(players));
  uint16_t v[32], w[32];
  std::vector<RankBoard> boards;
  RankBoard known;
  for (int j = 0; j < nboard; ++j) known.rank[j] = rank_of(board[j]);
  // A
  for (int i = 0; i < players; ++i) hs[i] = omaha_hole(holes + 4 * i, -1);
  rank_boards(left, need, known, nboard, 0, boards);
  for (auto& b : boards) {
    for (int i = 0; i < players; ++i) v[i] = omaha_value(t, hs[i], b, false);
    tally(v, players, b.weight, out);
    out.deals += b.weight;
  }
  // B
  for (int s = 0; s < 4; ++s) {
    bool pair_held = false;
    for (int i = 0; i < players; ++i) {
      hs[i] = omaha_hole(holes + 4 * i, s);
      for (uint32_t x : hs[i].suited_bits) pair_held |= x != 0;
    }
    if (!pair_held) continue;
    int board_s = 0, suited[13], ns = 0, others[13];
    unsigned known_suited = 0;
    for (int j = 0; j < nboard; ++j)
      if ((board[j] & 3) == s) ++board_s, known_suited |= 1u << j;
    for (int r = 0; r < 13; ++r) {
      if (left_suit[s][r]) suited[ns++] = r;
      others[r] = left[r] - left_suit[s][r];
    }
    for (int cs = std::max(0, 3 - board_s); cs <= std::min(need, ns); ++cs) {
      int idx[5];
      for (int j = 0; j < cs; ++j) idx[j] = j;
      while (true) {
        RankBoard b = known;
        b.suited = known_suited;
        for (int j = 0; j < cs; ++j) b.rank[nboard + j] = suited[idx[j]], b.suited |= 1u << (nboard + j);
        boards.clear();
        rank_boards(others, need - cs, b, nboard + cs, 0, boards);
        for (auto& fb : boards) {
          for (int i = 0; i < players; ++i) {
            v[i] = omaha_value(t, hs[i], fb, true);
            w[i] = omaha_value(t, hs[i], fb, false);
          }
          tally(v, players, fb.weight, out);
          tally(w, players, -fb.weight, out);
        }
        int j = cs - 1;
        while (j >= 0 && idx[j] == ns - cs + j) --j;
        if (j < 0) break;
        ++idx[j];
        for (int q = j + 1; q < cs; ++q) idx[q] = idx[q - 1] + 1;
      }
    }
  }
}

}  // namespace big2poker

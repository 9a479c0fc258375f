// A pool of threads kept by a batch of deals (batch_bindings.cpp's PyBatch), so that a call
// split over several threads does not start and join threads each time.
//
// run(n, f, site) calls f(lo, hi) over [0, n) cut into small contiguous chunks that the
// caller and the pool's threads claim one at a time (a counter tagged with the call's
// number), so a thread that is not running leaves its share to the others: the caller
// steps every chunk nobody else took.
//
// Whether a call is split at all is measured, for each call site (each of the batch's
// methods is one): the caller keeps the time an item took when it stepped the call alone
// and when the call was split (moving averages), splits when that was the faster way,
// and tries the other way now and then: after kFirstTrial calls, then twice as many each
// time the way in use stays the faster (at most kMaxTrial), and at once when the way in
// use becomes slower than the other was. On a machine with a core to spare a split call
// wins; when another process keeps the other core busy, a pool thread the scheduler has
// not run, or has stopped in the middle of a chunk, makes a split call slower than the
// caller alone, and the caller then steps its calls alone, waking nobody.
// Between calls a thread waits awake for a short while (kSpin) and then sleeps on a
// condition variable. It waits awake only after a call split because splitting was the
// faster way (not a trial) in which it found a chunk to step: a thread whose core is
// wanted by another process (whose waking up would hold the caller up) sleeps.
// The caller waits for the chunks others are stepping the same way: briefly awake, then
// asleep until the last one ends.
// An exception thrown by a chunk is raised again in the caller after every chunk ended.
// A process forked from the owner (whose copy has no threads) runs every chunk itself,
// and leaves the threads, lock and condition it copied alone when the pool is destroyed.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BIG2_PAUSE() _mm_pause()
#else
#define BIG2_PAUSE() std::this_thread::yield()
#endif

namespace big2n {

class Pool {
 public:
  // How long a thread waits awake for the next call, and the caller for the chunks others
  // are stepping, before sleeping.
  static constexpr std::chrono::microseconds kSpin{200};
  // Chunks a call is cut into per thread (fewer when there are fewer items).
  static constexpr size_t kChunksPerThread = 8;
  // Call sites measured apart (a site number is taken modulo this).
  static constexpr int kSites = 8;
  // Calls of a site before the way not in use is tried again: at first, and at most.
  static constexpr int kFirstTrial = 8;
  static constexpr int kMaxTrial = 1024;

  // How a site's calls went: how many were stepped alone and how many split, and the
  // moving averages of the nanoseconds an item took each way (0: not measured yet).
  struct Site {
    uint64_t alone_calls = 0, split_calls = 0;
    double alone_ns = 0, split_ns = 0;
    bool split = true;  // the way in use
    int period = kFirstTrial, until_trial = kFirstTrial;
  };

  // A pool of *threads* - 1 threads beside the caller's.
  explicit Pool(int threads) : owner_(getpid()), s_(new Shared()) {
    Shared* s = s_.get();
    for (int i = 1; i < threads; ++i) s->workers.emplace_back([s] { serve(*s); });
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    if (getpid() != owner_) {  // a forked copy: its threads, lock and condition are the owner's
      (void)s_.release();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(s_->mu);
      s_->stop.store(true, std::memory_order_release);
      s_->gen.fetch_add(1, std::memory_order_release);
    }
    s_->cv.notify_all();
    for (auto& t : s_->workers) t.join();
  }

  size_t threads() const { return s_->workers.size() + 1; }

  // How the calls of *site* went so far.
  const Site& site(int site) const { return sites_[size_t(site) % kSites]; }

  // f(lo, hi) over [0, n) in contiguous chunks, on this thread and, when that is the
  // faster way for calls of *site*, the pool's.
  template <class F>
  void run(size_t n, F&& f, int site = 0) {
    if (threads() == 1 || n <= 1 || getpid() != owner_) { f(size_t(0), n); return; }
    Site& st = sites_[size_t(site) % kSites];
    bool trial = --st.until_trial <= 0;
    bool split = st.split != trial;
    auto start = std::chrono::steady_clock::now();
    if (split) split_run(n, f, !trial); else f(size_t(0), n);
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() -
                                                         start).count() / double(n);
    ++(split ? st.split_calls : st.alone_calls);
    measured(st, split, trial, ns);
  }

 private:
  // What the threads share with the caller (on the heap: a forked copy leaves it be).
  struct Shared {
    std::vector<std::thread> workers;
    std::mutex mu;
    std::condition_variable cv;       // a new call (or stop), for the sleeping threads
    std::condition_variable done_cv;  // the last chunk ended, for a sleeping caller
    std::atomic<uint64_t> gen{0};     // calls made so far
    std::atomic<uint64_t> next{0};    // call << 32 | the next chunk to claim
    std::atomic<size_t> done{0};      // chunks of this call ended
    const std::function<void(size_t)>* job = nullptr;
    std::atomic<size_t> chunks{0};    // chunks of this call (atomic: a late thread may read it)
    std::atomic<bool> spin{false};    // whether a thread that stepped a chunk waits awake after
    std::exception_ptr error;
    int asleep = 0;             // threads sleeping on cv (under mu)
    bool caller_asleep = false;  // (under mu)
    std::atomic<bool> stop{false};
  };

  // A call of *st* took *ns* an item, *split* or not (a *trial* of the way not in use):
  // the averages, and the way for the next calls.
  static void measured(Site& st, bool split, bool trial, double ns) {
    double& mine = split ? st.split_ns : st.alone_ns;
    double other = split ? st.alone_ns : st.split_ns;
    if (mine <= 0) mine = ns;
    else if (trial) mine += (ns - mine) / 2;
    else mine += (std::min(ns, 2 * mine) - mine) / 4;  // one slow call moves it 25% at most
    if (trial) {
      // splitting must win by 10% to be taken up (a lucky trial on a busy machine costs
      // the split calls after it), and by less to be kept
      bool faster = st.split_ns > 0 && st.alone_ns > 0
                        ? st.split_ns * (st.split ? 1.0 : 1.1) < st.alone_ns : st.split;
      st.period = faster == st.split ? std::min(2 * st.period, kMaxTrial) : kFirstTrial;
      st.split = faster;
      st.until_trial = st.period;
    } else if (other > 0 && (mine > 1.05 * other || (split && ns > 2 * other))) {
      // the way in use became the slower, or a split call took twice what the caller
      // alone takes (a thread the scheduler stopped: another process wants the core)
      st.split = !st.split;
      st.period = st.until_trial = kFirstTrial;
    }
  }

  // f over [0, n) split over the caller and the threads; *spin*: a thread that stepped a
  // chunk waits awake for the next call.
  template <class F>
  void split_run(size_t n, F& f, bool spin) {
    Shared& s = *s_;
    size_t chunks = std::min(n, threads() * kChunksPerThread);
    size_t size = (n + chunks - 1) / chunks;
    chunks = (n + size - 1) / size;
    std::function<void(size_t)> job = [&](size_t j) {
      size_t lo = j * size, hi = std::min(n, lo + size);
      f(lo, hi);
    };
    s.job = &job;
    s.chunks.store(chunks, std::memory_order_relaxed);  // published by next's release below
    s.spin.store(spin, std::memory_order_relaxed);
    s.error = nullptr;
    s.done.store(0, std::memory_order_relaxed);
    uint64_t call = s.gen.load(std::memory_order_relaxed) + 1;  // only the caller counts calls
    s.next.store(call << 32, std::memory_order_release);  // chunk 0 of this call
    bool wake;
    {
      std::lock_guard<std::mutex> lock(s.mu);
      s.gen.store(call, std::memory_order_release);
      wake = s.asleep > 0;
    }
    if (wake) s.cv.notify_all();
    step_chunks(s, call);
    // wait for the chunks the others claimed: briefly awake, then asleep
    auto until = std::chrono::steady_clock::now() + kSpin;
    for (int spins = 0; s.done.load(std::memory_order_acquire) != chunks; ++spins) {
      BIG2_PAUSE();
      if ((spins & 63) == 63 && std::chrono::steady_clock::now() > until) {
        std::unique_lock<std::mutex> lock(s.mu);
        s.caller_asleep = true;
        s.done_cv.wait(lock, [&] { return s.done.load(std::memory_order_acquire) == chunks; });
        s.caller_asleep = false;
        break;
      }
    }
    s.job = nullptr;
    if (s.error) std::rethrow_exception(s.error);
  }

  // Claim and step chunks of call *call* until none is left; how many this thread stepped.
  static size_t step_chunks(Shared& s, uint64_t call) {
    size_t stepped = 0;
    uint64_t v = s.next.load(std::memory_order_acquire);
    while (true) {
      size_t total = s.chunks.load(std::memory_order_relaxed);  // this call's, once v is
      if ((v >> 32) != call || (v & 0xffffffffu) >= total) return stepped;
      if (!s.next.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel,
                                        std::memory_order_acquire))
        continue;
      // claimed: the call cannot end before this chunk does, so job and total are its own
      try {
        (*s.job)(size_t(v & 0xffffffffu));
      } catch (...) {
        std::lock_guard<std::mutex> lock(s.mu);
        if (!s.error) s.error = std::current_exception();
      }
      ++stepped;
      if (s.done.fetch_add(1, std::memory_order_acq_rel) + 1 == total) {
        std::lock_guard<std::mutex> lock(s.mu);
        if (s.caller_asleep) s.done_cv.notify_one();
      }
      v = s.next.load(std::memory_order_acquire);
    }
  }

  static void serve(Shared& s) {
    uint64_t seen = 0;
    bool spin = false;  // whether to wait awake (the last call asked it, and a chunk was stepped)
    while (true) {
      uint64_t g = s.gen.load(std::memory_order_acquire);
      if (g == seen && spin) {
        auto until = std::chrono::steady_clock::now() + kSpin;
        for (int spins = 0; g == seen; ++spins) {
          BIG2_PAUSE();
          g = s.gen.load(std::memory_order_acquire);
          if ((spins & 63) == 63 && std::chrono::steady_clock::now() > until) break;
        }
      }
      if (g == seen) {
        std::unique_lock<std::mutex> lock(s.mu);
        ++s.asleep;
        s.cv.wait(lock, [&] { return s.gen.load(std::memory_order_acquire) != seen; });
        --s.asleep;
        g = s.gen.load(std::memory_order_acquire);
      }
      seen = g;
      if (s.stop.load(std::memory_order_acquire)) return;
      bool asked = s.spin.load(std::memory_order_relaxed);  // this call's (published by gen)
      spin = step_chunks(s, g) > 0 && asked;
    }
  }

  pid_t owner_;
  std::unique_ptr<Shared> s_;
  std::array<Site, kSites> sites_{};
};

}  // namespace big2n

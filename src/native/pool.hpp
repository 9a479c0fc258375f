// A pool of threads kept by a batch of deals (batch_bindings.cpp's PyBatch), so that a call
// split over several threads does not start and join threads each time.
//
// run(n, f) calls f(lo, hi) over [0, n) cut into small contiguous chunks that the caller and
// the pool's threads claim one at a time (a counter tagged with the call's number), so a
// thread that is not running (its core busy with another process) leaves its share to the
// others instead of holding the call up: the caller steps every chunk nobody else took.
// Between calls a thread waits awake for a short while (kSpin) and then sleeps on a
// condition variable; it waits awake only while that paid (its last wait ended in a chunk to
// step), so a thread that found nothing left, the caller having stepped it all, sleeps at
// once next time and leaves the core to whoever needs it.  The caller waits for the chunks
// others are stepping the same way: briefly awake, then asleep until the last one ends.
// A thread stopped by the scheduler in the middle of a chunk still holds the call up; when
// the caller waited for the others longer than a quarter of its own stepping, it steps the
// next calls alone (8, then twice as many each time it happens again in a row, at most
// kMaxSolo), and tries the threads again after.
// An exception thrown by a chunk is raised again in the caller after every chunk ended.
// A process forked from the owner (whose copy has no threads) runs every chunk itself,
// and leaves the threads, lock and condition it copied alone when the pool is destroyed.
#pragma once

#include <algorithm>
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
  // The most calls in a row the caller steps alone after the others held a call up.
  static constexpr int kMaxSolo = 256;

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

  // f(lo, hi) over [0, n) in contiguous chunks, on this thread and the pool's.
  template <class F>
  void run(size_t n, F&& f) {
    Shared& s = *s_;
    if (threads() == 1 || n <= 1 || getpid() != owner_) { f(size_t(0), n); return; }
    if (solo_ > 0) {  // the others held the last calls up: the caller alone for a while
      --solo_;
      f(size_t(0), n);
      return;
    }
    auto start = std::chrono::steady_clock::now();
    size_t chunks = std::min(n, threads() * kChunksPerThread);
    size_t size = (n + chunks - 1) / chunks;
    chunks = (n + size - 1) / size;
    std::function<void(size_t)> job = [&](size_t j) {
      size_t lo = j * size, hi = std::min(n, lo + size);
      f(lo, hi);
    };
    s.job = &job;
    s.chunks.store(chunks, std::memory_order_relaxed);  // published by next's release below
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
    auto own = std::chrono::steady_clock::now();
    auto until = own + kSpin;
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
    // A call whose caller waited for the others longer than a quarter of its own stepping
    // (a thread the scheduler stopped in the middle of a chunk: the machine's cores are
    // busy) is followed by calls the caller steps alone, twice as many each time in a row
    // it happens (8 up to kMaxSolo), so a busy machine costs a probe now and then.
    auto waited = std::chrono::steady_clock::now() - own;
    if (waited * 4 > own - start) {
      backoff_ = std::min(kMaxSolo, backoff_ ? 2 * backoff_ : 8);
      solo_ = backoff_;
    } else {
      backoff_ = 0;
    }
    if (s.error) std::rethrow_exception(s.error);
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
    std::exception_ptr error;
    int asleep = 0;             // threads sleeping on cv (under mu)
    bool caller_asleep = false;  // (under mu)
    std::atomic<bool> stop{false};
  };

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
    bool spin = true;  // whether the last wait ended in a chunk to step
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
      spin = step_chunks(s, g) > 0;
    }
  }

  pid_t owner_;
  std::unique_ptr<Shared> s_;
  int solo_ = 0;     // calls left that the caller steps alone
  int backoff_ = 0;  // how many it stepped alone last time (0: the last call paid)
};

}  // namespace big2n

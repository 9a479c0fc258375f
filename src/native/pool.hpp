// A pool of threads kept by a batch of deals (batch_bindings.cpp's Batch), so that a call
// split over several threads does not start and join threads each time.
//
// run(n, f) calls f(lo, hi) over [0, n) cut into one contiguous chunk per thread, the
// calling thread taking the first.  Between calls the pool's threads wait awake for a
// short while (kSpin) before they sleep on a condition variable: on a virtual machine,
// waking a sleeping core costs more than stepping a few hundred deals, and a batch is
// usually stepped again at once.  The caller waits for the chunks awake too.  An
// exception thrown by a chunk is raised again in the caller after every chunk ended.
// A process forked from the owner (whose copy has no threads) runs every chunk itself,
// and leaves the threads, lock and condition it copied alone when the pool is destroyed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <memory>
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
  static constexpr std::chrono::microseconds kSpin{500};

  // A pool of *threads* - 1 threads beside the caller's.
  explicit Pool(int threads) : owner_(getpid()), s_(new Shared()) {
    Shared* s = s_.get();
    for (int i = 1; i < threads; ++i) s->workers.emplace_back([s, i] { serve(*s, size_t(i)); });
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
      s_->stop = true;
      s_->gen.fetch_add(1, std::memory_order_release);
    }
    s_->cv.notify_all();
    for (auto& t : s_->workers) t.join();
  }

  size_t threads() const { return s_->workers.size() + 1; }

  // f(lo, hi) over [0, n) in threads() contiguous chunks (fewer when n is small).
  template <class F>
  void run(size_t n, F&& f) {
    Shared& s = *s_;
    size_t k = std::min(threads(), std::max<size_t>(n, 1));
    if (k == 1 || getpid() != owner_) { f(size_t(0), n); return; }
    size_t chunk = (n + k - 1) / k;
    std::function<void(size_t)> job = [&](size_t j) {
      size_t lo = j * chunk, hi = std::min(n, lo + chunk);
      if (lo < hi) f(lo, hi);
    };
    s.job = &job;
    s.chunks = k;
    s.error = nullptr;
    s.pending.store(int(s.workers.size()), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(s.mu);
      s.gen.fetch_add(1, std::memory_order_release);
    }
    s.cv.notify_all();
    std::exception_ptr mine;
    try { job(0); } catch (...) { mine = std::current_exception(); }
    // wait for the other chunks awake, giving the core up after a while (more threads
    // than cores: the one we wait for may need this one)
    for (int spins = 0; s.pending.load(std::memory_order_acquire) != 0; ++spins) {
      if (spins < 4096) BIG2_PAUSE(); else std::this_thread::yield();
    }
    s.job = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (s.error) std::rethrow_exception(s.error);
  }

 private:
  // What the threads share with the caller (on the heap: a forked copy leaves it be).
  struct Shared {
    std::vector<std::thread> workers;
    std::mutex mu;
    std::condition_variable cv;
    std::atomic<uint64_t> gen{0};
    std::atomic<int> pending{0};
    const std::function<void(size_t)>* job = nullptr;
    size_t chunks = 0;
    std::exception_ptr error;
    bool stop = false;
  };

  static void serve(Shared& s, size_t index) {
    uint64_t seen = 0;
    while (true) {
      uint64_t g = s.gen.load(std::memory_order_acquire);
      auto until = std::chrono::steady_clock::now() + kSpin;
      for (int spins = 0; g == seen; ++spins) {
        if (spins < 4096) BIG2_PAUSE(); else std::this_thread::yield();
        g = s.gen.load(std::memory_order_acquire);
        if (g == seen && std::chrono::steady_clock::now() > until) {
          std::unique_lock<std::mutex> lock(s.mu);
          s.cv.wait(lock, [&] { return s.gen.load(std::memory_order_acquire) != seen; });
          g = s.gen.load(std::memory_order_acquire);
        }
      }
      seen = g;
      if (s.stop) return;
      if (index < s.chunks) {
        try {
          (*s.job)(index);
        } catch (...) {
          std::lock_guard<std::mutex> lock(s.mu);
          if (!s.error) s.error = std::current_exception();
        }
      }
      s.pending.fetch_sub(1, std::memory_order_release);
    }
  }

  pid_t owner_;
  std::unique_ptr<Shared> s_;
};

}  // namespace big2n

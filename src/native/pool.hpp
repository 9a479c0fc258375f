// A pool of threads kept by a batch of deals (bindings.cpp's Batch), so that a call
// split over several threads does not start and join threads each time.
//
// run(n, f) calls f(lo, hi) over [0, n) cut into one contiguous chunk per thread, the
// calling thread taking the first.  Between calls the pool's threads wait awake for a
// short while (kSpin) before they sleep on a condition variable: on a virtual machine,
// waking a sleeping core costs more than stepping a few hundred deals, and a batch is
// usually stepped again at once.  The caller waits for the chunks awake too.  An
// exception thrown by a chunk is raised again in the caller after every chunk ended.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

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
  explicit Pool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { serve(size_t(i)); });
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      gen_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  size_t threads() const { return workers_.size() + 1; }

  // f(lo, hi) over [0, n) in threads() contiguous chunks (fewer when n is small).
  template <class F>
  void run(size_t n, F&& f) {
    size_t k = std::min(threads(), std::max<size_t>(n, 1));
    if (k == 1) { f(size_t(0), n); return; }
    size_t chunk = (n + k - 1) / k;
    std::function<void(size_t)> job = [&](size_t j) {
      size_t lo = j * chunk, hi = std::min(n, lo + chunk);
      if (lo < hi) f(lo, hi);
    };
    job_ = &job;
    chunks_ = k;
    error_ = nullptr;
    pending_.store(int(workers_.size()), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mu_);
      gen_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    std::exception_ptr mine;
    try { job(0); } catch (...) { mine = std::current_exception(); }
    while (pending_.load(std::memory_order_acquire) != 0) BIG2_PAUSE();
    job_ = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void serve(size_t index) {
    uint64_t seen = 0;
    while (true) {
      uint64_t g = gen_.load(std::memory_order_acquire);
      auto until = std::chrono::steady_clock::now() + kSpin;
      while (g == seen) {
        BIG2_PAUSE();
        g = gen_.load(std::memory_order_acquire);
        if (g == seen && std::chrono::steady_clock::now() > until) {
          std::unique_lock<std::mutex> lock(mu_);
          cv_.wait(lock, [&] { return gen_.load(std::memory_order_acquire) != seen; });
          g = gen_.load(std::memory_order_acquire);
        }
      }
      seen = g;
      if (stop_) return;
      if (index < chunks_) {
        try {
          (*job_)(index);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mu_);
          if (!error_) error_ = std::current_exception();
        }
      }
      pending_.fetch_sub(1, std::memory_order_release);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<uint64_t> gen_{0};
  std::atomic<int> pending_{0};
  const std::function<void(size_t)>* job_ = nullptr;
  size_t chunks_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
};

}  // namespace big2n

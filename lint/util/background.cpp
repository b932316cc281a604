#include "lint/util/background.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace gpulint {
namespace {

// Idle workers wait for the next task; a task that finds none idle starts one more.
struct Pool {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> tasks;
  int idle = 0;
};

// Never destroyed: its workers still wait on it while static destructors run at exit.
Pool& ThePool() {
  static Pool* pool = new Pool;
  return *pool;
}

void Work(Pool* pool) {
  std::unique_lock<std::mutex> lock(pool->mutex);
  for (;;) {
    ++pool->idle;
    pool->wake.wait(lock, [pool] { return !pool->tasks.empty(); });
    --pool->idle;
    std::function<void()> task = std::move(pool->tasks.front());
    pool->tasks.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace

void RunInBackground(std::function<void()> task) {
  Pool& pool = ThePool();
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    pool.tasks.push_back(std::move(task));
    if (static_cast<int>(pool.tasks.size()) <= pool.idle) {
      pool.wake.notify_one();
      return;
    }
    // Tasks waiting beyond the idle workers get a worker each.
    try {
      std::thread(Work, &pool).detach();
      return;
    } catch (const std::system_error&) {
      // No thread to be had: the task runs here rather than wait forever.
      task = std::move(pool.tasks.back());
      pool.tasks.pop_back();
    }
  }
  task();
}

}  // namespace gpulint

// Work started now and collected later, on threads that are kept for the life of the process.
#pragma once

#include <functional>
#include <future>
#include <memory>

namespace gpulint {

/// Runs `task` on a background thread. Threads are started as needed, reused, and never exit:
/// a thread's exit gives its allocator heap back and unmaps its stack, which stops the other
/// core for a TLB flush, and at start-up that cost as much as the parsing the thread overlapped
/// (about a millisecond of a 5 ms lint; bench/speed).
void RunInBackground(std::function<void()> task);

/// `work`'s result, computed on a background thread. Unlike std::async's, this future's
/// destructor does not wait: an owner whose members `work` touches must wait for it before it
/// goes away.
template <typename Work>
auto StartInBackground(Work work) -> std::future<decltype(work())> {
  using Result = decltype(work());
  auto task = std::make_shared<std::packaged_task<Result()>>(std::move(work));
  std::future<Result> result = task->get_future();
  RunInBackground([task] { (*task)(); });
  return result;
}

}  // namespace gpulint

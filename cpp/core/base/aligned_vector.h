// std::vector whose storage starts on a 64-byte cache line. Emscripten's malloc
// aligns to 8 bytes only, and then one f32x4 load in four straddles two cache
// lines; the SIMD kernels' scratch and the benchmark inputs use this instead.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace attn {

template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlign); }
  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const CacheLineAllocator<U>&) const { return false; }
};

using AlignedFloats = std::vector<float, CacheLineAllocator<float>>;

}  // namespace attn

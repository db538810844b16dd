// Marks math shared by a kernel (.cu, compiled by nvcc) and its CPU twin (g++): host+device inline
// functions under nvcc, plain inline functions elsewhere.
#pragma once

#if defined(__CUDACC__)
#define TP_HD __host__ __device__ inline
#else
#define TP_HD inline
#endif

// a * b rounded on its own: the GPU never contracts it with a following addition into a fused
// multiply-add, so math written with it gives the same bits on the GPU and on the CPU.
TP_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

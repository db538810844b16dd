// The one list of hooked driver functions: it drives the exported symbols (exports.cpp), the
// answers of our dlsym (dlsym_hook.cpp) and the pointers handed out by cuGetProcAddress
// (proc_address_hooks.cpp), so that a function is hooked everywhere or nowhere.
//
// How a hook works (the LLVM compiler-rt interception style: define the wrapper, bind it, call the
// real function):
//  - Each line names one ABI symbol the driver exports: the API it belongs to, the symbol, the
//    cudaTypedefs.h version suffix of its PFN_ type (its exact signature), and whether it is the
//    legacy-stream or the per-thread-default-stream (_ptsz/_ptds) variant.
//  - exports.cpp instantiates, per line, a wrapper with exactly the PFN_ signature and exports it
//    under the symbol name. The wrapper calls the API's hook `on_<api>(const Real<PFN>&, args...)`
//    (hooks_*.cpp), handing it the real driver function of that same symbol, so that the hook
//    always calls through to the variant the program asked for.
//  - The real functions are found once, with dlsym in the real driver (real_driver.cpp): never
//    through our own exports.
//  - Old ABI names whose signatures differ in width (the 32-bit cuMemAlloc of CUDA 2.x and the
//    like) are not hooked: 64-bit programs cannot use them meaningfully.
//
// TP_HOOK(api, symbol, pfn_version, mode): PFN type = PFN_<api>_<pfn_version>; mode = legacy or
// per_thread.
#pragma once

#define TIDEPOOL_HOOK_LIST(TP_HOOK)                                                              \
  /* Driver entry points. */                                                                     \
  TP_HOOK(cuGetProcAddress, cuGetProcAddress, v11030, legacy)                                    \
  TP_HOOK(cuGetProcAddress, cuGetProcAddress_v2, v12000, legacy)                                 \
  /* Device memory obtained and released. */                                                     \
  TP_HOOK(cuMemAlloc, cuMemAlloc_v2, v3020, legacy)                                              \
  TP_HOOK(cuMemAllocPitch, cuMemAllocPitch_v2, v3020, legacy)                                    \
  TP_HOOK(cuMemAllocAsync, cuMemAllocAsync, v11020, legacy)                                      \
  TP_HOOK(cuMemAllocAsync, cuMemAllocAsync_ptsz, v11020_ptsz, per_thread)                        \
  TP_HOOK(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync, v11020, legacy)                      \
  TP_HOOK(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz, v11020_ptsz, per_thread)        \
  TP_HOOK(cuMemFree, cuMemFree_v2, v3020, legacy)                                                \
  TP_HOOK(cuMemFreeAsync, cuMemFreeAsync, v11020, legacy)                                        \
  TP_HOOK(cuMemFreeAsync, cuMemFreeAsync_ptsz, v11020_ptsz, per_thread)                          \
  TP_HOOK(cuMemAllocManaged, cuMemAllocManaged, v6000, legacy)                                   \
  TP_HOOK(cuMemCreate, cuMemCreate, v10020, legacy)                                              \
  TP_HOOK(cuMemRelease, cuMemRelease, v10020, legacy)                                            \
  TP_HOOK(cuMemAddressReserve, cuMemAddressReserve, v10020, legacy)                              \
  TP_HOOK(cuMemAddressFree, cuMemAddressFree, v10020, legacy)                                    \
  TP_HOOK(cuMemMap, cuMemMap, v10020, legacy)                                                    \
  TP_HOOK(cuMemUnmap, cuMemUnmap, v10020, legacy)                                                \
  TP_HOOK(cuMemAllocHost, cuMemAllocHost_v2, v3020, legacy)                                      \
  TP_HOOK(cuMemHostAlloc, cuMemHostAlloc, v2020, legacy)                                         \
  TP_HOOK(cuMemFreeHost, cuMemFreeHost, v2000, legacy)                                           \
  TP_HOOK(cuMemHostRegister, cuMemHostRegister_v2, v6050, legacy)                                \
  TP_HOOK(cuMemHostUnregister, cuMemHostUnregister, v4000, legacy)                               \
  TP_HOOK(cuArrayCreate, cuArrayCreate_v2, v3020, legacy)                                        \
  TP_HOOK(cuArray3DCreate, cuArray3DCreate_v2, v3020, legacy)                                    \
  TP_HOOK(cuArrayDestroy, cuArrayDestroy, v2000, legacy)                                         \
  TP_HOOK(cuMipmappedArrayCreate, cuMipmappedArrayCreate, v5000, legacy)                         \
  TP_HOOK(cuMipmappedArrayDestroy, cuMipmappedArrayDestroy, v5000, legacy)                       \
  TP_HOOK(cuIpcOpenMemHandle, cuIpcOpenMemHandle_v2, v11000, legacy)                             \
  TP_HOOK(cuIpcCloseMemHandle, cuIpcCloseMemHandle, v4010, legacy)                               \
  TP_HOOK(cuMemImportFromShareableHandle, cuMemImportFromShareableHandle, v10020, legacy)        \
  TP_HOOK(cuMemPoolImportPointer, cuMemPoolImportPointer, v11020, legacy)                        \
  /* Questions about, and exports of, an allocation's address. */                                \
  TP_HOOK(cuMemGetAddressRange, cuMemGetAddressRange_v2, v3020, legacy)                          \
  TP_HOOK(cuPointerGetAttribute, cuPointerGetAttribute, v4000, legacy)                           \
  TP_HOOK(cuPointerGetAttributes, cuPointerGetAttributes, v7000, legacy)                         \
  TP_HOOK(cuIpcGetMemHandle, cuIpcGetMemHandle, v4010, legacy)                                   \
  TP_HOOK(cuMemExportToShareableHandle, cuMemExportToShareableHandle, v10020, legacy)            \
  /* Contexts and modules. */                                                                    \
  TP_HOOK(cuCtxCreate, cuCtxCreate_v4, v12050, legacy)                                           \
  TP_HOOK(cuCtxDestroy, cuCtxDestroy_v2, v4000, legacy)                                          \
  TP_HOOK(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, v7000, legacy)                     \
  TP_HOOK(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset_v2, v11000, legacy)                   \
  TP_HOOK(cuModuleLoad, cuModuleLoad, v2000, legacy)                                             \
  TP_HOOK(cuModuleLoadData, cuModuleLoadData, v2000, legacy)                                     \
  TP_HOOK(cuModuleLoadDataEx, cuModuleLoadDataEx, v2010, legacy)                                 \
  TP_HOOK(cuModuleLoadFatBinary, cuModuleLoadFatBinary, v2000, legacy)                           \
  TP_HOOK(cuLibraryLoadData, cuLibraryLoadData, v12000, legacy)                                  \
  TP_HOOK(cuLibraryLoadFromFile, cuLibraryLoadFromFile, v12000, legacy)                          \
  TP_HOOK(cuModuleUnload, cuModuleUnload, v2000, legacy)                                         \
  TP_HOOK(cuLibraryUnload, cuLibraryUnload, v12000, legacy)                                      \
  /* Kernel launches, graph launches, host functions. */                                        \
  TP_HOOK(cuLaunchKernel, cuLaunchKernel, v4000, legacy)                                         \
  TP_HOOK(cuLaunchKernel, cuLaunchKernel_ptsz, v7000_ptsz, per_thread)                           \
  TP_HOOK(cuLaunchKernelEx, cuLaunchKernelEx, v11060, legacy)                                    \
  TP_HOOK(cuLaunchKernelEx, cuLaunchKernelEx_ptsz, v11060_ptsz, per_thread)                      \
  TP_HOOK(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel, v9000, legacy)                   \
  TP_HOOK(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel_ptsz, v9000_ptsz, per_thread)     \
  TP_HOOK(cuGraphLaunch, cuGraphLaunch, v10000, legacy)                                          \
  TP_HOOK(cuGraphLaunch, cuGraphLaunch_ptsz, v10000_ptsz, per_thread)                            \
  TP_HOOK(cuLaunchHostFunc, cuLaunchHostFunc, v10000, legacy)                                    \
  TP_HOOK(cuLaunchHostFunc, cuLaunchHostFunc_ptsz, v10000_ptsz, per_thread)                      \
  TP_HOOK(cuStreamAddCallback, cuStreamAddCallback, v5000, legacy)                               \
  TP_HOOK(cuStreamAddCallback, cuStreamAddCallback_ptsz, v7000_ptsz, per_thread)                 \
  /* Copies. */                                                                                  \
  TP_HOOK(cuMemcpy, cuMemcpy, v4000, legacy)                                                     \
  TP_HOOK(cuMemcpy, cuMemcpy_ptds, v7000_ptds, per_thread)                                       \
  TP_HOOK(cuMemcpyAsync, cuMemcpyAsync, v4000, legacy)                                           \
  TP_HOOK(cuMemcpyAsync, cuMemcpyAsync_ptsz, v7000_ptsz, per_thread)                             \
  TP_HOOK(cuMemcpyPeer, cuMemcpyPeer, v4000, legacy)                                             \
  TP_HOOK(cuMemcpyPeer, cuMemcpyPeer_ptds, v7000_ptds, per_thread)                               \
  TP_HOOK(cuMemcpyPeerAsync, cuMemcpyPeerAsync, v4000, legacy)                                   \
  TP_HOOK(cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz, v7000_ptsz, per_thread)                     \
  TP_HOOK(cuMemcpyHtoD, cuMemcpyHtoD_v2, v3020, legacy)                                          \
  TP_HOOK(cuMemcpyHtoD, cuMemcpyHtoD_v2_ptds, v7000_ptds, per_thread)                            \
  TP_HOOK(cuMemcpyDtoH, cuMemcpyDtoH_v2, v3020, legacy)                                          \
  TP_HOOK(cuMemcpyDtoH, cuMemcpyDtoH_v2_ptds, v7000_ptds, per_thread)                            \
  TP_HOOK(cuMemcpyDtoD, cuMemcpyDtoD_v2, v3020, legacy)                                          \
  TP_HOOK(cuMemcpyDtoD, cuMemcpyDtoD_v2_ptds, v7000_ptds, per_thread)                            \
  TP_HOOK(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2, v3020, legacy)                                \
  TP_HOOK(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2_ptsz, v7000_ptsz, per_thread)                  \
  TP_HOOK(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2, v3020, legacy)                                \
  TP_HOOK(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2_ptsz, v7000_ptsz, per_thread)                  \
  TP_HOOK(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2, v3020, legacy)                                \
  TP_HOOK(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2_ptsz, v7000_ptsz, per_thread)                  \
  TP_HOOK(cuMemcpy2D, cuMemcpy2D_v2, v3020, legacy)                                              \
  TP_HOOK(cuMemcpy2D, cuMemcpy2D_v2_ptds, v7000_ptds, per_thread)                                \
  TP_HOOK(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2, v3020, legacy)                            \
  TP_HOOK(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2_ptds, v7000_ptds, per_thread)              \
  TP_HOOK(cuMemcpy2DAsync, cuMemcpy2DAsync_v2, v3020, legacy)                                    \
  TP_HOOK(cuMemcpy2DAsync, cuMemcpy2DAsync_v2_ptsz, v7000_ptsz, per_thread)                      \
  TP_HOOK(cuMemcpy3D, cuMemcpy3D_v2, v3020, legacy)                                              \
  TP_HOOK(cuMemcpy3D, cuMemcpy3D_v2_ptds, v7000_ptds, per_thread)                                \
  TP_HOOK(cuMemcpy3DAsync, cuMemcpy3DAsync_v2, v3020, legacy)                                    \
  TP_HOOK(cuMemcpy3DAsync, cuMemcpy3DAsync_v2_ptsz, v7000_ptsz, per_thread)                      \
  TP_HOOK(cuMemcpy3DPeer, cuMemcpy3DPeer, v4000, legacy)                                         \
  TP_HOOK(cuMemcpy3DPeer, cuMemcpy3DPeer_ptds, v7000_ptds, per_thread)                           \
  TP_HOOK(cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync, v4000, legacy)                               \
  TP_HOOK(cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync_ptsz, v7000_ptsz, per_thread)                 \
  TP_HOOK(cuMemcpyBatchAsync, cuMemcpyBatchAsync, v12080, legacy)                                \
  TP_HOOK(cuMemcpyBatchAsync, cuMemcpyBatchAsync_ptsz, v12080_ptsz, per_thread)                  \
  TP_HOOK(cuMemcpyBatchAsync, cuMemcpyBatchAsync_v2, v13000, legacy)                             \
  TP_HOOK(cuMemcpyBatchAsync, cuMemcpyBatchAsync_v2_ptsz, v13000_ptsz, per_thread)               \
  TP_HOOK(cuMemPrefetchAsync, cuMemPrefetchAsync, v8000, legacy)                                 \
  TP_HOOK(cuMemPrefetchAsync, cuMemPrefetchAsync_ptsz, v8000_ptsz, per_thread)                   \
  TP_HOOK(cuMemPrefetchAsync, cuMemPrefetchAsync_v2, v12020, legacy)                             \
  TP_HOOK(cuMemPrefetchAsync, cuMemPrefetchAsync_v2_ptsz, v12020_ptsz, per_thread)               \
  /* Sets. */                                                                                    \
  TP_HOOK(cuMemsetD8, cuMemsetD8_v2, v3020, legacy)                                              \
  TP_HOOK(cuMemsetD8, cuMemsetD8_v2_ptds, v7000_ptds, per_thread)                                \
  TP_HOOK(cuMemsetD16, cuMemsetD16_v2, v3020, legacy)                                            \
  TP_HOOK(cuMemsetD16, cuMemsetD16_v2_ptds, v7000_ptds, per_thread)                              \
  TP_HOOK(cuMemsetD32, cuMemsetD32_v2, v3020, legacy)                                            \
  TP_HOOK(cuMemsetD32, cuMemsetD32_v2_ptds, v7000_ptds, per_thread)                              \
  TP_HOOK(cuMemsetD2D8, cuMemsetD2D8_v2, v3020, legacy)                                          \
  TP_HOOK(cuMemsetD2D8, cuMemsetD2D8_v2_ptds, v7000_ptds, per_thread)                            \
  TP_HOOK(cuMemsetD2D16, cuMemsetD2D16_v2, v3020, legacy)                                        \
  TP_HOOK(cuMemsetD2D16, cuMemsetD2D16_v2_ptds, v7000_ptds, per_thread)                          \
  TP_HOOK(cuMemsetD2D32, cuMemsetD2D32_v2, v3020, legacy)                                        \
  TP_HOOK(cuMemsetD2D32, cuMemsetD2D32_v2_ptds, v7000_ptds, per_thread)                          \
  TP_HOOK(cuMemsetD8Async, cuMemsetD8Async, v3020, legacy)                                       \
  TP_HOOK(cuMemsetD8Async, cuMemsetD8Async_ptsz, v7000_ptsz, per_thread)                         \
  TP_HOOK(cuMemsetD16Async, cuMemsetD16Async, v3020, legacy)                                     \
  TP_HOOK(cuMemsetD16Async, cuMemsetD16Async_ptsz, v7000_ptsz, per_thread)                       \
  TP_HOOK(cuMemsetD32Async, cuMemsetD32Async, v3020, legacy)                                     \
  TP_HOOK(cuMemsetD32Async, cuMemsetD32Async_ptsz, v7000_ptsz, per_thread)                       \
  TP_HOOK(cuMemsetD2D8Async, cuMemsetD2D8Async, v3020, legacy)                                   \
  TP_HOOK(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz, v7000_ptsz, per_thread)                     \
  TP_HOOK(cuMemsetD2D16Async, cuMemsetD2D16Async, v3020, legacy)                                 \
  TP_HOOK(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz, v7000_ptsz, per_thread)                   \
  TP_HOOK(cuMemsetD2D32Async, cuMemsetD2D32Async, v3020, legacy)                                 \
  TP_HOOK(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz, v7000_ptsz, per_thread)                   \
  /* Streams, events, synchronization, stream memory operations. */                             \
  TP_HOOK(cuStreamCreate, cuStreamCreate, v2000, legacy)                                         \
  TP_HOOK(cuStreamCreateWithPriority, cuStreamCreateWithPriority, v5050, legacy)                 \
  TP_HOOK(cuStreamDestroy, cuStreamDestroy_v2, v4000, legacy)                                    \
  TP_HOOK(cuStreamSynchronize, cuStreamSynchronize, v2000, legacy)                               \
  TP_HOOK(cuStreamSynchronize, cuStreamSynchronize_ptsz, v7000_ptsz, per_thread)                 \
  TP_HOOK(cuStreamWaitEvent, cuStreamWaitEvent, v3020, legacy)                                   \
  TP_HOOK(cuStreamWaitEvent, cuStreamWaitEvent_ptsz, v7000_ptsz, per_thread)                     \
  TP_HOOK(cuEventCreate, cuEventCreate, v2000, legacy)                                           \
  TP_HOOK(cuEventRecord, cuEventRecord, v2000, legacy)                                           \
  TP_HOOK(cuEventRecord, cuEventRecord_ptsz, v7000_ptsz, per_thread)                             \
  TP_HOOK(cuEventRecordWithFlags, cuEventRecordWithFlags, v11010, legacy)                        \
  TP_HOOK(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz, v11010_ptsz, per_thread)          \
  TP_HOOK(cuEventSynchronize, cuEventSynchronize, v2000, legacy)                                 \
  TP_HOOK(cuEventDestroy, cuEventDestroy_v2, v4000, legacy)                                      \
  TP_HOOK(cuCtxSynchronize, cuCtxSynchronize, v2000, legacy)                                     \
  TP_HOOK(cuCtxSynchronize, cuCtxSynchronize_v2, v13000, legacy)                                 \
  TP_HOOK(cuStreamWaitValue32, cuStreamWaitValue32_v2, v11070, legacy)                           \
  TP_HOOK(cuStreamWaitValue32, cuStreamWaitValue32_v2_ptsz, v11070_ptsz, per_thread)             \
  TP_HOOK(cuStreamWaitValue64, cuStreamWaitValue64_v2, v11070, legacy)                           \
  TP_HOOK(cuStreamWaitValue64, cuStreamWaitValue64_v2_ptsz, v11070_ptsz, per_thread)             \
  TP_HOOK(cuStreamWriteValue32, cuStreamWriteValue32_v2, v11070, legacy)                         \
  TP_HOOK(cuStreamWriteValue32, cuStreamWriteValue32_v2_ptsz, v11070_ptsz, per_thread)           \
  TP_HOOK(cuStreamWriteValue64, cuStreamWriteValue64_v2, v11070, legacy)                         \
  TP_HOOK(cuStreamWriteValue64, cuStreamWriteValue64_v2_ptsz, v11070_ptsz, per_thread)           \
  TP_HOOK(cuStreamBatchMemOp, cuStreamBatchMemOp_v2, v11070, legacy)                             \
  TP_HOOK(cuStreamBatchMemOp, cuStreamBatchMemOp_v2_ptsz, v11070_ptsz, per_thread)               \
  /* Stream capture. */                                                                          \
  TP_HOOK(cuStreamBeginCapture, cuStreamBeginCapture_v2, v10010, legacy)                        \
  TP_HOOK(cuStreamBeginCapture, cuStreamBeginCapture_v2_ptsz, v10010_ptsz, per_thread)          \
  TP_HOOK(cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph, v12030, legacy)             \
  TP_HOOK(cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph_ptsz, v12030_ptsz, per_thread) \
  TP_HOOK(cuStreamEndCapture, cuStreamEndCapture, v10000, legacy)                                \
  TP_HOOK(cuStreamEndCapture, cuStreamEndCapture_ptsz, v10000_ptsz, per_thread)                  \
  TP_HOOK(cuStreamIsCapturing, cuStreamIsCapturing, v10000, legacy)                              \
  TP_HOOK(cuStreamIsCapturing, cuStreamIsCapturing_ptsz, v10000_ptsz, per_thread)                \
  TP_HOOK(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo, v10010, legacy)                        \
  TP_HOOK(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_ptsz, v10010_ptsz, per_thread)          \
  TP_HOOK(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_v2, v11030, legacy)                     \
  TP_HOOK(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_v2_ptsz, v11030_ptsz, per_thread)       \
  TP_HOOK(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_v3, v12030, legacy)                     \
  TP_HOOK(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_v3_ptsz, v12030_ptsz, per_thread)       \
  TP_HOOK(cuThreadExchangeStreamCaptureMode, cuThreadExchangeStreamCaptureMode, v10010, legacy)

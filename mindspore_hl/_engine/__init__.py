"""The engine: how a function over Tensors and Parameters runs, compiled or eagerly, on one device or a mesh.

Modules, lowest first (each imports only the ones above it, ``common`` and JAX):

- ``_state``: all global state (tracing state per thread, settings per process) and ``reset()``.
- ``_precision``: float32 matrix products and convolutions in full float32 or TF32 on GPUs (MindSpore's
  defaults; ``device_context.gpu.op_precision``).
- ``_scope``: the StatelessScope that turns Parameter reads and writes into values of a pure function.
- ``_mode``: the one rule for whether a call compiles (:func:`_mode.should_compile`).
- ``_parallel_context``, ``_layout``, ``_plan``, ``_auto``: the parallel context, layouts and the sharding
  plan a compiled step gets outside STAND_ALONE mode; ``_strategy_ckpt`` writes its layouts as MindSpore's
  strategy file (``strategy_ckpt_save_file``).
- ``_step``: the pure step, its cache key, compiler options, the built executable (``Entry``) and error
  explanation, shared by everything below.
- ``_autodiff``, ``_custom``, ``_saved_tensors``: grad / value_and_grad / vjp / jvp ..., custom bprop, and the
  pack / unpack hooks on what a gradient saves (``saved_tensors_hooks``).
- ``_flops``: FLOPs of compiled steps as MindSpore counts them, and the phase names ``flops_collection`` counts.
- ``_compiled``: ``CompiledFunction`` (Cell calls, ``jit``, GRAPH_MODE grad) and eager parallel steps.
- ``_runner``: ``StepRunner``, Model's train/eval steps with the state held between calls (and sink mode).
- ``_cache``: JAX's persistent compilation cache (``set_context(enable_compile_cache=True)``).

Nothing is imported here, so a low-level module can import ``_engine._state`` without loading the rest.
"""

"""set/get/reset_auto_parallel_context, ParallelMode and the memory budget key."""
import pytest
from mindspore_hl.parallel._context import memory_budget, mesh

import mindspore_hl as ms
from mindspore_hl import parallel
from mindspore_hl.parallel import ParallelMode
from mindspore_hl.parallel import get_auto_parallel_context as get
from mindspore_hl.parallel import set_auto_parallel_context as set_


def test_parallel_mode_values_are_mindspores_strings():
    assert ParallelMode.STAND_ALONE == "stand_alone"
    assert ParallelMode.DATA_PARALLEL == "data_parallel"
    assert ParallelMode.SEMI_AUTO_PARALLEL == "semi_auto_parallel"
    assert ParallelMode.AUTO_PARALLEL == "auto_parallel"
    assert ParallelMode.HYBRID_PARALLEL == "hybrid_parallel"


def test_defaults_set_get_reset():
    assert get("parallel_mode") == "stand_alone"
    assert get("device_num") == 1 and get("global_rank") == 0
    assert get("gradients_mean") is False and get("full_batch") is False
    assert get("search_mode") == "recursive_programming"
    set_(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=8,
         all_reduce_fusion_config=[85, 160])
    assert get("parallel_mode") == "data_parallel"
    assert get("gradients_mean") is True and get("device_num") == 8
    assert get("all_reduce_fusion_config") == [85, 160]
    set_(full_batch=True)
    assert get("dataset_strategy") == "full_batch"
    set_(search_mode="sharding_propagation")
    assert get("auto_parallel_search_mode") == "sharding_propagation"
    parallel.reset_auto_parallel_context()
    assert get("parallel_mode") == "stand_alone" and get("device_num") == 1 and get("full_batch") is False
    assert get("all_reduce_fusion_config") == []


@pytest.mark.parametrize("kwargs, error, match", [
    ({"parallel_mode": "model_parallel"}, ValueError, "parallel_mode must be one of"),
    ({"device_num": 0}, ValueError, r"device_num must be in \[1, 4096\]"),
    ({"device_num": "8"}, TypeError, "'device_num' must be int"),
    ({"gradients_mean": 1}, TypeError, "'gradients_mean' must be bool"),
    ({"search_mode": "greedy"}, ValueError, "'search_mode' must be one of"),
    ({"no_such_key": 1}, ValueError, "unknown key 'no_such_key'"),
    ({"pipeline_stages": 2}, NotImplementedError, "pipeline parallelism"),
    ({"enable_parallel_optimizer": True}, NotImplementedError, "optimizer-state sharding"),
    ({"dataset_strategy": "model"}, ValueError, "dataset_strategy must be"),
])
def test_bad_values_are_rejected(kwargs, error, match):
    with pytest.raises(error, match=match):
        set_(**kwargs)
    assert get("parallel_mode") == "stand_alone"  # nothing was half-applied


def test_get_unknown_key():
    with pytest.raises(ValueError, match="unknown key 'mode'"):
        get("mode")


def test_memory_budget_from_max_device_memory():
    assert memory_budget() is None
    for text, expected in (("2GB", 2 << 30), ("0.5GB", 1 << 29), ("12MB", 12 << 20), ("64KB", 64 << 10)):
        ms.set_context(max_device_memory=text)
        assert memory_budget() == expected
    ms.set_context(max_device_memory="lots")
    with pytest.raises(ValueError, match="max_device_memory must look like '3.5GB'"):
        memory_budget()


@pytest.mark.devices(8)
def test_mesh_is_data_by_model_over_all_devices():
    m = mesh(2)
    assert m.axis_names == ("data", "model") and dict(m.shape) == {"data": 4, "model": 2}
    assert mesh(2) is m
    with pytest.raises(ValueError, match="model axis of size 3 does not divide the 8 devices"):
        mesh(3)
    set_(device_num=4)
    assert dict(mesh(1).shape) == {"data": 4, "model": 1}

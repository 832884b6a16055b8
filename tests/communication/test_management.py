"""communication.init / get_rank / groups, and the launcher's process environment."""
import os

import pytest

from mindspore_hl import communication as comm
from mindspore_hl.communication import _launcher, _management

_CLUSTER_VARS = ("MS_SCHED_HOST", "MS_SCHED_PORT", "MS_WORKER_NUM", "MS_NODE_ID", "RANK_ID", "MASTER_ADDR",
                 "MASTER_PORT", "WORLD_SIZE", "RANK", "JAX_COORDINATOR_ADDRESS", "JAX_NUM_PROCESSES",
                 "JAX_PROCESS_ID", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "LOCAL_RANK", "MS_LOCAL_RANK",
                 "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID")


@pytest.fixture
def no_cluster(monkeypatch):
    for name in _CLUSTER_VARS:
        monkeypatch.delenv(name, raising=False)


def test_queries_before_init_are_errors():
    with pytest.raises(RuntimeError, match=r"not initialized; call mindspore_hl.communication.init\(\) first"):
        comm.get_rank()
    with pytest.raises(RuntimeError, match="not initialized"):
        comm.get_group_size()


def test_single_process_init(no_cluster):
    comm.init()
    assert comm.GlobalComm.INITED
    assert comm.get_rank() == 0 and comm.get_group_size() == 1 and comm.get_local_rank() == 0
    assert comm.get_rank(comm.HCCL_WORLD_COMM_GROUP) == 0
    comm.init()  # a second init is a no-op
    with pytest.raises(ValueError, match="backend_name must be one of"):
        comm.init("mpi-ish")


def test_groups(no_cluster):
    comm.init("nccl")
    assert comm.GlobalComm.WORLD_COMM_GROUP == comm.NCCL_WORLD_COMM_GROUP
    comm.create_group("solo", [0])
    assert comm.get_group_size("solo") == 1 and comm.get_rank("solo") == 0
    assert comm.get_world_rank_from_group_rank("solo", 0) == 0
    assert comm.get_group_rank_from_world_rank(0, "solo") == 0
    with pytest.raises(ValueError, match=r"rank_ids must be distinct ranks in \[0, 1\)"):
        comm.create_group("bad", [0, 1])
    with pytest.raises(ValueError, match="unknown group 'nope'"):
        comm.get_group_size("nope")
    comm.destroy_group("solo")
    with pytest.raises(ValueError, match="unknown group 'solo'"):
        comm.destroy_group("solo")
    comm.GlobalComm.WORLD_COMM_GROUP = comm.HCCL_WORLD_COMM_GROUP


def test_cluster_environment_styles(no_cluster, monkeypatch):
    assert _management._cluster_from_env() is None
    monkeypatch.setenv("MASTER_ADDR", "10.0.0.1")
    monkeypatch.setenv("MASTER_PORT", "29500")
    monkeypatch.setenv("WORLD_SIZE", "4")
    monkeypatch.setenv("RANK", "3")
    assert _management._cluster_from_env() == ("10.0.0.1:29500", 4, 3)
    monkeypatch.setenv("MS_SCHED_HOST", "127.0.0.1")
    monkeypatch.setenv("MS_SCHED_PORT", "8118")
    monkeypatch.setenv("MS_WORKER_NUM", "2")
    monkeypatch.setenv("RANK_ID", "1")
    assert _management._cluster_from_env() == ("127.0.0.1:8118", 2, 1)  # msrun's names come first
    monkeypatch.delenv("RANK_ID")
    with pytest.raises(ValueError, match="MS_WORKER_NUM .* and MS_NODE_ID or RANK_ID .* must be set too"):
        _management._cluster_from_env()
    monkeypatch.setenv("MS_NODE_ID", "x")
    with pytest.raises(ValueError, match="MS_NODE_ID must be an integer, but is 'x'"):
        _management._cluster_from_env()


def test_init_after_jax_started_is_a_clear_error(no_cluster, monkeypatch):
    import jax
    jax.numpy.zeros(1).block_until_ready()  # this process already runs JAX computations
    for k, v in (("MS_SCHED_HOST", "127.0.0.1"), ("MS_SCHED_PORT", "1"), ("MS_WORKER_NUM", "2"), ("MS_NODE_ID", "0")):
        monkeypatch.setenv(k, v)
    with pytest.raises(RuntimeError, match="must be called before any JAX computation"):
        comm.init()
    assert not comm.GlobalComm.INITED


def test_launcher_environment(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_foo=1 --xla_force_host_platform_device_count=8")
    args = _launcher._parser().parse_args(["-n", "2", "--nnodes", "2", "--node_rank", "1",
                                           "--devices_per_process", "3", "train.py", "--epochs", "2"])
    assert args.script == "train.py" and args.script_args == ["--epochs", "2"]
    rank, env = _launcher._child_env(args, 4321, local_rank=1)
    assert rank == 3
    assert env["XLA_FLAGS"] == "--xla_cpu_foo=1 --xla_force_host_platform_device_count=3"
    assert (env["MS_SCHED_HOST"], env["MS_SCHED_PORT"], env["MS_WORKER_NUM"], env["MS_NODE_ID"]) == \
        ("127.0.0.1", "4321", "4", "3")
    assert (env["RANK_ID"], env["RANK_SIZE"], env["LOCAL_RANK"], env["LOCAL_WORLD_SIZE"]) == ("3", "4", "1", "2")
    assert _launcher._describe(-9) == "was killed by SIGKILL" and _launcher._describe(3) == "exited with code 3"


def test_launcher_argument_errors(tmp_path):
    with pytest.raises(SystemExit, match="script not found"):
        _launcher.main(["-n", "2", str(tmp_path / "missing.py")])
    script = tmp_path / "s.py"
    script.write_text("")
    with pytest.raises(SystemExit, match="--master_port is required"):
        _launcher.main(["-n", "1", "--nnodes", "2", str(script)])
    with pytest.raises(SystemExit, match="need -n >= 1"):
        _launcher.main(["-n", "0", str(script)])


def test_launcher_runs_processes_and_reports_failure(tmp_path, capfd):
    script = tmp_path / "s.py"
    script.write_text("import os, sys\nprint('hello from', os.environ['RANK_ID'], os.environ['RANK_SIZE'])\n"
                      "sys.exit(3 if os.environ['RANK_ID'] == '1' else 0)\n")
    code = _launcher.main(["-n", "2", "--grace_s", "5", "--log_dir", str(tmp_path / "logs"), str(script)])
    out = capfd.readouterr().out
    assert code == 3
    assert "[rank 0] hello from 0 2" in out and "[rank 1] hello from 1 2" in out
    assert "first failure: rank 1 exited with code 3" in out
    assert (tmp_path / "logs" / "worker_1.log").read_text() == "hello from 1 2\n"
    assert os.path.exists(tmp_path / "logs" / "worker_0.log")

"""Each communication test starts with the communication service not initialized."""
import pytest

from mindspore_hl.communication import _management


@pytest.fixture(autouse=True)
def _fresh_communication():
    yield
    _management.GlobalComm.INITED = False
    _management._groups.clear()
    _management._state.update(rank=0, size=1, distributed=False, failed=False)

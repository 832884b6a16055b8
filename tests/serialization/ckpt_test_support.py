"""Test support: fixture paths, and an independent reference codec for the .ckpt format (MindSpore's
checkpoint.proto built with protobuf at run time). Imported by the tests as a plain module; importing from
conftest would be ambiguous when other test folders have their own conftest.py."""
import pathlib

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "mindspore"
LENET = FIXTURES / "lenet5"
RESNET = FIXTURES / "resnet50"


def _build_checkpoint_class():
    """MindSpore's checkpoint.proto (proto2), built from a descriptor at run time: the reference codec."""
    F = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="hl_test_checkpoint.proto", package="hltest", syntax="proto2")
    tp = fdp.message_type.add(name="TensorProto")
    tp.field.add(name="dims", number=1, type=F.TYPE_INT64, label=F.LABEL_REPEATED)
    tp.field.add(name="tensor_type", number=2, type=F.TYPE_STRING, label=F.LABEL_REQUIRED)
    tp.field.add(name="tensor_content", number=3, type=F.TYPE_BYTES, label=F.LABEL_REQUIRED)
    mtp = fdp.message_type.add(name="MapTensorProto")
    mtp.field.add(name="tensor", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                  type_name=".hltest.TensorProto")
    ck = fdp.message_type.add(name="Checkpoint")
    val = ck.nested_type.add(name="Value")
    val.field.add(name="tag", number=1, type=F.TYPE_STRING, label=F.LABEL_REQUIRED)
    val.oneof_decl.add(name="value")
    val.field.add(name="tensor", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL,
                  type_name=".hltest.TensorProto", oneof_index=0)
    val.field.add(name="maptensor", number=3, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL,
                  type_name=".hltest.MapTensorProto", oneof_index=0)
    ck.field.add(name="value", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                 type_name=".hltest.Checkpoint.Value")
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(fdp.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("hltest.Checkpoint"))


PbCheckpoint = _build_checkpoint_class()


def pb_parse(data):
    """Parse checkpoint bytes with protobuf (strips MindSpore's crc trailer first, as its loader does)."""
    if data[-17:-10] == b"crc_num":
        data = data[:-17]
    msg = PbCheckpoint()
    msg.ParseFromString(data)
    return msg


def pb_record(tag, dims, tensor_type, content):
    """One serialized Checkpoint holding one tensor record, as MindSpore's writer produces it."""
    msg = PbCheckpoint()
    v = msg.value.add()
    v.tag = tag
    v.tensor.dims.extend(dims)
    v.tensor.tensor_type = tensor_type
    v.tensor.tensor_content = content
    return msg.SerializeToString()

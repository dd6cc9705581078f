# Writes core-wasm/tests/data/ico-pyarrow-{plain,lz4,zstd}.arrow: the ICO vectors' stream (as
# arrow-rs writes it for tests/tables.rs, left in target/tmp/ico.arrow by `cargo test -p
# lvlx-core --test tables`) rewritten by pyarrow, an Arrow writer independent of this project,
# in three record batches each carrying its own dictionaries. pyarrow emits a replacement
# dictionary before each batch (the stream format allows it); the later ones are larger than the
# first. Run: pip install pyarrow && python3 core-wasm/testdata/pyarrow_streams.py
import os
import pyarrow as pa
import pyarrow.ipc as ipc

here = os.path.dirname(os.path.abspath(__file__))
source = os.path.join(here, "..", "..", "target", "tmp", "ico.arrow")
table = ipc.open_stream(open(source, "rb").read()).read_all()
rows = table.num_rows
cuts = [0, 3, rows // 2, rows]  # a small first batch: its dictionaries are the smallest


def batch(start, end):
    columns = []
    for field, column in zip(table.schema, table.columns):
        chunk = column.slice(start, end - start).combine_chunks()
        if pa.types.is_dictionary(field.type):
            # A dictionary of this batch's values only, in this batch's order of appearance.
            plain = chunk.cast(field.type.value_type)
            chunk = plain.dictionary_encode().cast(field.type)
        columns.append(chunk)
    return pa.record_batch(columns, schema=table.schema)


batches = [batch(a, b) for a, b in zip(cuts, cuts[1:])]
assert len({tuple(b.column(1).dictionary.to_pylist()) for b in batches}) == 3
for name, compression in [("plain", None), ("lz4", "lz4"), ("zstd", "zstd")]:
    sink = pa.BufferOutputStream()
    options = ipc.IpcWriteOptions(compression=compression, emit_dictionary_deltas=False)
    with ipc.new_stream(sink, table.schema, options=options) as writer:
        for b in batches:
            writer.write_batch(b)
    path = os.path.join(here, "..", "tests", "data", f"ico-pyarrow-{name}.arrow")
    open(path, "wb").write(sink.getvalue().to_pybytes())
    print(path, sink.getvalue().size, "bytes")

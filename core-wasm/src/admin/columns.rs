//! Arrow IPC in and out (docs/product/admin.md#tables-at-scale).
//!
//! Reading is this crate's own: the browser needs five column types (Int64, UInt32,
//! Decimal128, Utf8 and Utf8 dictionaries), and arrow-rs's general reader, which handles every
//! Arrow type, would grow the core's WebAssembly from 0.2 MB to 1.6 MB on every page. The
//! message metadata is read with arrow-ipc's generated flatbuffer accessors; the buffers are
//! decoded straight into typed columns. Writing (server side) uses arrow-rs itself, so the
//! tests check this reader against the reference writer.
//!
//! Amounts travel as Decimal128 with scale 0: base units, exact.

use std::borrow::Cow;
use std::io::Read;

use arrow_ipc::{root_as_message, MessageHeader, Type};

use super::TableError;

/// One decoded stream: named columns of equal length.
#[derive(Debug, Default)]
pub struct Frame {
    rows: usize,
    columns: Vec<(String, Column)>,
}

#[derive(Debug)]
pub enum Column {
    Int64(Vec<i64>),
    UInt32(Vec<u32>),
    /// Decimal128 scale 0: base units (never negative here).
    Amount(Vec<i128>),
    Text(Texts),
    /// Dictionary-encoded text: a key per row into the distinct values.
    Keyed {
        keys: Vec<u32>,
        values: Texts,
    },
}

/// Utf8 values (null reads as "").
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Texts {
    offsets: Vec<u32>,
    data: String,
    valid: Option<Vec<u8>>,
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Int64(v) => v.len(),
            Column::UInt32(v) => v.len(),
            Column::Amount(v) => v.len(),
            Column::Text(t) => t.len(),
            Column::Keyed { keys, .. } => keys.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Texts {
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn is_null(&self, i: usize) -> bool {
        self.valid
            .as_ref()
            .is_some_and(|bits| bits[i / 8] & (1 << (i % 8)) == 0)
    }
    /// Appends a value (or a null).
    fn push(&mut self, text: &str, null: bool) -> Result<(), TableError> {
        let i = self.len();
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        if null && self.valid.is_none() {
            // Every value so far is valid.
            self.valid = Some(vec![0xFF; i.div_ceil(8) + 1]);
        }
        self.data.push_str(text);
        let end = u32::try_from(self.data.len()).map_err(|_| bad("text column too long"))?;
        self.offsets.push(end);
        if let Some(bits) = &mut self.valid {
            if bits.len() <= i / 8 {
                bits.resize(i / 8 + 1, 0);
            }
            if null {
                bits[i / 8] &= !(1 << (i % 8));
            } else {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        Ok(())
    }

    pub fn get(&self, i: usize) -> &str {
        if self.is_null(i) {
            return "";
        }
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }
}

fn bad(what: impl std::fmt::Display) -> TableError {
    TableError::Arrow(what.to_string())
}

/// A field of the stream's schema, as far as this reader understands it.
struct FieldKind {
    name: String,
    shape: Shape,
    /// Dictionary id of a dictionary-encoded field.
    dictionary: Option<i64>,
}

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Int64,
    UInt32,
    UInt8,
    Decimal128,
    Utf8,
}

impl Frame {
    /// Decodes an Arrow IPC stream (one schema, dictionaries, record batches).
    pub fn decode(bytes: &[u8]) -> Result<Frame, TableError> {
        let mut at = 0usize;
        let mut fields: Vec<FieldKind> = Vec::new();
        let mut dictionaries: Vec<(i64, Texts)> = Vec::new();
        let mut parts: Vec<Vec<Column>> = Vec::new();
        let mut rows = 0usize;
        loop {
            let mut word = read_u32(bytes, at)?;
            at += 4;
            if word == 0xFFFF_FFFF {
                word = read_u32(bytes, at)?;
                at += 4;
            }
            let meta_len = word as usize;
            if meta_len == 0 {
                break;
            }
            let meta = slice(bytes, at, meta_len).ok_or_else(|| bad("truncated metadata"))?;
            at += meta_len;
            let message = root_as_message(meta).map_err(bad)?;
            let body_len = usize::try_from(message.bodyLength()).map_err(bad)?;
            let body = slice(bytes, at, body_len).ok_or_else(|| bad("truncated body"))?;
            at += body_len;
            match message.header_type() {
                MessageHeader::Schema => {
                    let schema = message.header_as_schema().ok_or_else(|| bad("schema"))?;
                    for field in schema.fields().into_iter().flatten() {
                        fields.push(field_kind(&field)?);
                    }
                }
                MessageHeader::DictionaryBatch => {
                    let batch = message
                        .header_as_dictionary_batch()
                        .ok_or_else(|| bad("dictionary"))?;
                    if batch.isDelta() {
                        return Err(bad("delta dictionaries are not supported"));
                    }
                    let data = batch.data().ok_or_else(|| bad("dictionary data"))?;
                    let mut cursor = Cursor::new(&data, body)?;
                    let values = cursor.texts()?;
                    dictionaries.retain(|(id, _)| *id != batch.id());
                    dictionaries.push((batch.id(), values));
                }
                MessageHeader::RecordBatch => {
                    let batch = message
                        .header_as_record_batch()
                        .ok_or_else(|| bad("batch"))?;
                    let mut cursor = Cursor::new(&batch, body)?;
                    let mut columns = Vec::with_capacity(fields.len());
                    for field in &fields {
                        let column = read_column(&mut cursor, field, &dictionaries)?;
                        columns.push(column);
                    }
                    let length = usize::try_from(batch.length()).map_err(bad)?;
                    // Found by fuzzing: a batch whose length disagrees with its columns made
                    // the tables index past a column's end.
                    if columns.iter().any(|c| c.len() != length) {
                        return Err(bad("a column's length is not the batch's"));
                    }
                    rows = rows.checked_add(length).ok_or_else(|| bad("rows"))?;
                    parts.push(columns);
                }
                _ => return Err(bad("unsupported message")),
            }
        }
        Frame::assemble(&fields, parts, rows)
    }

    /// The frame of `rows` rows whose columns are `fields`, each joined from its piece in every
    /// record batch (`parts`, batch by batch).
    fn assemble(
        fields: &[FieldKind],
        mut parts: Vec<Vec<Column>>,
        rows: usize,
    ) -> Result<Frame, TableError> {
        let mut frame = Frame {
            rows,
            columns: Vec::new(),
        };
        for (i, field) in fields.iter().enumerate() {
            let mut pieces = parts
                .iter_mut()
                .map(|p| std::mem::replace(&mut p[i], Column::Int64(Vec::new())));
            let first = pieces.next();
            let column = match first {
                None => empty_like(field),
                Some(first) => pieces.try_fold(first, join)?,
            };
            frame.columns.push((field.name.clone(), column));
        }
        Ok(frame)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    fn column(&self, name: &str) -> Result<&Column, TableError> {
        self.columns
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c)
            .ok_or_else(|| TableError::Column(name.into()))
    }

    pub fn times(&self, name: &str) -> Result<&[i64], TableError> {
        match self.column(name)? {
            Column::Int64(v) => Ok(v),
            _ => Err(TableError::Column(name.into())),
        }
    }
    pub fn counts(&self, name: &str) -> Result<&[u32], TableError> {
        match self.column(name)? {
            Column::UInt32(v) => Ok(v),
            _ => Err(TableError::Column(name.into())),
        }
    }
    /// Base-unit amounts (never negative: the decoder refuses a stream with one).
    pub fn amounts(&self, name: &str) -> Result<&[i128], TableError> {
        match self.column(name)? {
            Column::Amount(v) => Ok(v),
            _ => Err(TableError::Column(name.into())),
        }
    }
    pub fn texts(&self, name: &str) -> Result<&Texts, TableError> {
        match self.column(name)? {
            Column::Text(v) => Ok(v),
            _ => Err(TableError::Column(name.into())),
        }
    }
    pub fn keyed(&self, name: &str) -> Result<(&[u32], &Texts), TableError> {
        match self.column(name)? {
            Column::Keyed { keys, values } => Ok((keys, values)),
            _ => Err(TableError::Column(name.into())),
        }
    }
}

fn empty_like(field: &FieldKind) -> Column {
    match (field.shape, field.dictionary) {
        (_, Some(_)) => Column::Keyed {
            keys: Vec::new(),
            values: Texts::default(),
        },
        (Shape::Int64, _) => Column::Int64(Vec::new()),
        (Shape::Decimal128, _) => Column::Amount(Vec::new()),
        (Shape::Utf8, _) => Column::Text(Texts {
            offsets: vec![0],
            ..Texts::default()
        }),
        _ => Column::UInt32(Vec::new()),
    }
}

/// Appends a later batch's column to an earlier one's.
fn join(a: Column, b: Column) -> Result<Column, TableError> {
    Ok(match (a, b) {
        (Column::Int64(mut a), Column::Int64(b)) => {
            a.extend(b);
            Column::Int64(a)
        }
        (Column::UInt32(mut a), Column::UInt32(b)) => {
            a.extend(b);
            Column::UInt32(a)
        }
        (Column::Amount(mut a), Column::Amount(b)) => {
            a.extend(b);
            Column::Amount(a)
        }
        (Column::Text(mut a), Column::Text(b)) => {
            for i in 0..b.len() {
                a.push(b.get(i), b.is_null(i))?;
            }
            Column::Text(a)
        }
        // Each batch's keys point into the dictionary it was read with (a stream may replace a
        // dictionary between batches): the later batch's values join the earlier ones, once
        // each, and its keys are mapped onto them.
        (
            Column::Keyed {
                mut keys,
                mut values,
            },
            Column::Keyed {
                keys: more,
                values: theirs,
            },
        ) => {
            if theirs == values {
                keys.extend(more);
            } else {
                let mut index: std::collections::HashMap<(bool, String), u32> = (0..values.len())
                    .map(|i| ((values.is_null(i), values.get(i).to_string()), i as u32))
                    .collect();
                let mut map = Vec::with_capacity(theirs.len());
                for j in 0..theirs.len() {
                    let entry = (theirs.is_null(j), theirs.get(j).to_string());
                    let at = match index.get(&entry) {
                        Some(&at) => at,
                        None => {
                            let at = u32::try_from(values.len())
                                .map_err(|_| bad("dictionary too large"))?;
                            values.push(&entry.1, entry.0)?;
                            index.insert(entry, at);
                            at
                        }
                    };
                    map.push(at);
                }
                // Keys were checked against their own dictionary when read.
                keys.extend(more.into_iter().map(|k| map[k as usize]));
            }
            Column::Keyed { keys, values }
        }
        _ => return Err(bad("batches whose columns differ in type")),
    })
}

fn field_kind(field: &arrow_ipc::Field) -> Result<FieldKind, TableError> {
    let name = field.name().unwrap_or_default().to_string();
    let unsupported = || bad(format!("column {name} has an unsupported type"));
    let shape = match field.type_type() {
        Type::Int => {
            let int = field.type_as_int().ok_or_else(unsupported)?;
            match (int.bitWidth(), int.is_signed()) {
                (64, true) => Shape::Int64,
                (32, false) => Shape::UInt32,
                (8, false) => Shape::UInt8,
                _ => return Err(unsupported()),
            }
        }
        Type::Decimal => {
            let decimal = field.type_as_decimal().ok_or_else(unsupported)?;
            if decimal.bitWidth() != 128 || decimal.scale() != 0 {
                return Err(unsupported());
            }
            Shape::Decimal128
        }
        Type::Utf8 => Shape::Utf8,
        _ => return Err(unsupported()),
    };
    let (shape, dictionary) = match field.dictionary() {
        None => (shape, None),
        Some(encoding) => {
            if shape != Shape::Utf8 {
                return Err(unsupported());
            }
            let index = encoding.indexType().ok_or_else(unsupported)?;
            let key = match (index.bitWidth(), index.is_signed()) {
                (8, false) => Shape::UInt8,
                (32, false) => Shape::UInt32,
                _ => return Err(unsupported()),
            };
            (key, Some(encoding.id()))
        }
    };
    Ok(FieldKind {
        name,
        shape,
        dictionary,
    })
}

/// `len` bytes from `at`, None past the end (or past usize: lengths come from the stream).
fn slice(bytes: &[u8], at: usize, len: usize) -> Option<&[u8]> {
    bytes.get(at..at.checked_add(len)?)
}

fn read_u32(bytes: &[u8], at: usize) -> Result<u32, TableError> {
    let word = slice(bytes, at, 4).ok_or_else(|| bad("truncated stream"))?;
    Ok(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

/// One column of a record batch at `cursor`, as `field` describes it; a keyed column's values
/// from `dictionaries`, every key checked against them.
fn read_column(
    cursor: &mut Cursor<'_>,
    field: &FieldKind,
    dictionaries: &[(i64, Texts)],
) -> Result<Column, TableError> {
    Ok(match (field.shape, field.dictionary) {
        (Shape::Int64, None) => Column::Int64(cursor.fixed(i64::from_le_bytes)?),
        (Shape::UInt32, None) => Column::UInt32(cursor.fixed(u32::from_le_bytes)?),
        (Shape::Decimal128, None) => {
            let amounts = cursor.fixed(i128::from_le_bytes)?;
            if amounts.iter().any(|&a| a < 0) {
                return Err(TableError::Overflow);
            }
            Column::Amount(amounts)
        }
        (Shape::Utf8, None) => Column::Text(cursor.texts()?),
        (shape, Some(id)) => {
            let keys = match shape {
                Shape::UInt8 => cursor
                    .fixed(u8::from_le_bytes)?
                    .into_iter()
                    .map(u32::from)
                    .collect(),
                Shape::UInt32 => cursor.fixed(u32::from_le_bytes)?,
                _ => return Err(bad("dictionary key type")),
            };
            let values = dictionaries
                .iter()
                .find(|(d, _)| *d == id)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| bad("dictionary missing"))?;
            if keys.iter().any(|&k| k as usize >= values.len()) {
                return Err(bad("dictionary key out of range"));
            }
            Column::Keyed { keys, values }
        }
        (Shape::UInt8, None) => return Err(bad("unsupported column type")),
    })
}

/// Walks a batch's field nodes and buffers in schema order.
struct Cursor<'a> {
    body: &'a [u8],
    /// Buffers LZ4-frame compressed (each: its uncompressed length, then the frame).
    compressed: bool,
    nodes: Vec<(usize, usize)>,
    buffers: Vec<(usize, usize)>,
    node: usize,
    buffer: usize,
}

impl<'a> Cursor<'a> {
    fn new(batch: &arrow_ipc::RecordBatch<'_>, body: &'a [u8]) -> Result<Cursor<'a>, TableError> {
        let compressed = match batch.compression() {
            None => false,
            Some(c) if c.codec() == arrow_ipc::CompressionType::LZ4_FRAME => true,
            Some(_) => return Err(bad("only LZ4 frame compression is supported")),
        };
        let size = |v: i64| usize::try_from(v).map_err(bad);
        let nodes = batch
            .nodes()
            .into_iter()
            .flatten()
            .map(|n| Ok((size(n.length())?, size(n.null_count())?)))
            .collect::<Result<_, TableError>>()?;
        let buffers = batch
            .buffers()
            .into_iter()
            .flatten()
            .map(|b| Ok((size(b.offset())?, size(b.length())?)))
            .collect::<Result<_, TableError>>()?;
        Ok(Cursor {
            body,
            compressed,
            nodes,
            buffers,
            node: 0,
            buffer: 0,
        })
    }

    fn next_node(&mut self) -> Result<(usize, usize), TableError> {
        let node = *self
            .nodes
            .get(self.node)
            .ok_or_else(|| bad("missing field node"))?;
        self.node += 1;
        Ok(node)
    }

    fn next_buffer(&mut self) -> Result<Cow<'a, [u8]>, TableError> {
        let (offset, len) = *self
            .buffers
            .get(self.buffer)
            .ok_or_else(|| bad("missing buffer"))?;
        self.buffer += 1;
        let raw = slice(self.body, offset, len).ok_or_else(|| bad("buffer out of bounds"))?;
        if !self.compressed || raw.is_empty() {
            return Ok(Cow::Borrowed(raw));
        }
        // Arrow's compressed buffer: the uncompressed length (i64, -1: stored as is), then the
        // LZ4 frame.
        let (head, frame) = raw
            .split_at_checked(8)
            .ok_or_else(|| bad("compressed buffer without its length"))?;
        let claimed = i64::from_le_bytes(head.try_into().map_err(bad)?);
        if claimed == -1 {
            return Ok(Cow::Borrowed(frame));
        }
        let claimed = usize::try_from(claimed).map_err(bad)?;
        // LZ4 expands at most ~255 times: a larger claim is a lie, not a reason to allocate.
        if claimed > frame.len().saturating_mul(255).saturating_add(64) {
            return Err(bad("compressed buffer claims too much"));
        }
        let mut out = Vec::with_capacity(claimed);
        lz4_flex::frame::FrameDecoder::new(frame)
            .take(claimed as u64 + 1)
            .read_to_end(&mut out)
            .map_err(bad)?;
        if out.len() != claimed {
            return Err(bad("compressed buffer is not its claimed length"));
        }
        Ok(Cow::Owned(out))
    }

    /// A fixed-width column without nulls.
    fn fixed<T, const N: usize>(&mut self, from: fn([u8; N]) -> T) -> Result<Vec<T>, TableError> {
        let (len, nulls) = self.next_node()?;
        self.next_buffer()?; // validity
        if nulls != 0 {
            return Err(bad("nulls in a number column"));
        }
        let values = self.next_buffer()?;
        let values =
            slice(&values, 0, len.saturating_mul(N)).ok_or_else(|| bad("short values buffer"))?;
        Ok(values
            .chunks_exact(N)
            .map(|c| from(c.try_into().unwrap_or([0; N])))
            .collect())
    }

    fn texts(&mut self) -> Result<Texts, TableError> {
        let (len, nulls) = self.next_node()?;
        let validity = self.next_buffer()?;
        let offsets = self.next_buffer()?;
        let data = self.next_buffer()?;
        let valid = if nulls == 0 {
            None
        } else {
            Some(
                slice(&validity, 0, len.div_ceil(8))
                    .ok_or_else(|| bad("short validity"))?
                    .to_vec(),
            )
        };
        let offsets: Vec<u32> = slice(&offsets, 0, len.saturating_add(1).saturating_mul(4))
            .ok_or_else(|| bad("short offsets"))?
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let base = offsets.first().copied().unwrap_or(0);
        let end = offsets.last().copied().unwrap_or(0);
        if offsets.windows(2).any(|w| w[0] > w[1]) || end as usize > data.len() {
            return Err(bad("offsets out of order"));
        }
        let data = std::str::from_utf8(&data[base as usize..end as usize]).map_err(bad)?;
        let texts = Texts {
            offsets: offsets.iter().map(|o| o - base).collect(),
            data: data.to_string(),
            valid,
        };
        // Every value must start and end on a character boundary.
        for i in 0..texts.len() {
            let (a, b) = (texts.offsets[i] as usize, texts.offsets[i + 1] as usize);
            if !texts.data.is_char_boundary(a) || !texts.data.is_char_boundary(b) {
                return Err(bad("text split inside a character"));
            }
        }
        Ok(texts)
    }
}

/// The server's side: schemas and the arrow-rs writer.
#[cfg(not(target_arch = "wasm32"))]
pub mod write {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, RecordBatch};
    use arrow_ipc::writer::{IpcWriteOptions, StreamWriter};
    use arrow_ipc::CompressionType;
    use arrow_schema::{DataType, Field, Schema, SchemaRef};

    use super::super::TableError;

    pub const AMOUNT: DataType = DataType::Decimal128(38, 0);

    pub fn time(name: &str) -> Field {
        Field::new(name, DataType::Int64, false)
    }
    pub fn text(name: &str, nullable: bool) -> Field {
        Field::new(name, DataType::Utf8, nullable)
    }
    /// A text column with few distinct values, each sent once (ledger emails, tokens).
    pub fn keyed_text(name: &str, key: DataType) -> Field {
        Field::new_dictionary(name, key, DataType::Utf8, false)
    }
    pub fn amount(name: &str) -> Field {
        Field::new(name, AMOUNT, false)
    }
    pub fn count(name: &str) -> Field {
        Field::new(name, DataType::UInt32, false)
    }
    pub fn schema(fields: Vec<Field>) -> SchemaRef {
        Arc::new(Schema::new(fields))
    }

    fn arrow(e: impl std::fmt::Display) -> TableError {
        TableError::Arrow(e.to_string())
    }

    pub fn batch(schema: SchemaRef, columns: Vec<ArrayRef>) -> Result<RecordBatch, TableError> {
        RecordBatch::try_new(schema, columns).map_err(arrow)
    }

    /// One batch as an Arrow IPC stream, its buffers LZ4-compressed (Arrow's own buffer
    /// compression: a 10^6-row stream is about a third of its size).
    pub fn encode(batch: &RecordBatch) -> Result<Vec<u8>, TableError> {
        let mut out = Vec::new();
        let options = IpcWriteOptions::default()
            .try_with_compression(Some(CompressionType::LZ4_FRAME))
            .map_err(arrow)?;
        let mut writer = StreamWriter::try_new_with_options(&mut out, &batch.schema(), options)
            .map_err(arrow)?;
        writer.write(batch).map_err(arrow)?;
        writer.finish().map_err(arrow)?;
        drop(writer);
        Ok(out)
    }
}

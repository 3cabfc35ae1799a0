package io.conduit.files;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A CSV file read one row at a time (Jackson's streaming CSV parser: RFC 4180 quoting, quoted line breaks, UTF-8):
 * the header first, then each data row with the line it starts on. A row whose number of values differs from the
 * header's, an unclosed quote or a header with an empty or repeated name is a {@link MalformedCsvException} naming
 * the line. Blank lines are skipped. Blocking: read it on a worker thread.
 */
public final class CsvRows implements Closeable {

    private static final CsvFactory FACTORY = CsvFactory.builder()
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .disable(CsvParser.Feature.ALLOW_TRAILING_COMMA)
            .build();

    /** A data row: the line it starts on (the header is line 1) and its values, one per column. */
    public record Row(long line, String[] values) {
    }

    private final CsvParser parser;
    private final List<String> header;
    private final List<String> values = new ArrayList<>();
    private long lastLine = 1;

    private CsvRows(InputStream in) throws IOException {
        this.parser = (CsvParser) FACTORY.createParser(in);
        List<String> names = read();
        if (names == null) {
            throw new MalformedCsvException(1, "the file is empty: a CSV file starts with a header line naming its columns");
        }
        long line = lastLine;
        if (!names.isEmpty() && names.get(0).startsWith("\uFEFF")) {
            names.set(0, names.get(0).substring(1)); // a byte order mark is not part of the first name
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i).strip();
            if (name.isEmpty()) {
                throw new MalformedCsvException(line, "column " + (i + 1) + " of the header has no name");
            }
            if (!seen.add(name)) {
                throw new MalformedCsvException(line, "the header names column \"" + name + "\" twice");
            }
            names.set(i, name);
        }
        this.header = List.copyOf(names);
    }

    /** Opens the stream and reads its header; the caller closes it. */
    public static CsvRows open(InputStream in) {
        try {
            return new CsvRows(in);
        } catch (StreamReadException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<String> header() {
        return header;
    }

    /** The index of a column, or -1. */
    public int column(String name) {
        return header.indexOf(name);
    }

    /** The next data row, or null at the end. */
    public Row next() {
        try {
            List<String> row = read();
            if (row == null) {
                return null;
            }
            if (row.size() != header.size()) {
                throw new MalformedCsvException(lastLine, row.size() + " values where the header has " + header.size() + " columns");
            }
            return new Row(lastLine, row.toArray(String[]::new));
        } catch (StreamReadException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The values of the next record, or null at the end; {@link #lastLine} is where it started. */
    private List<String> read() throws IOException {
        JsonToken t = parser.nextToken();
        while (t != null && t != JsonToken.START_ARRAY) {
            t = parser.nextToken();
        }
        if (t == null) {
            return null;
        }
        values.clear();
        for (t = parser.nextToken(); t != null && t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            if (values.isEmpty()) {
                // where the record's first value starts (the array's own location is the previous record's end)
                lastLine = parser.currentTokenLocation().getLineNr();
            }
            values.add(parser.getText());
        }
        return new ArrayList<>(values);
    }

    private static MalformedCsvException malformed(StreamReadException e) {
        long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        return new MalformedCsvException(Math.max(1, line), e.getOriginalMessage());
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException ignored) {
            // nothing more is read
        }
    }
}

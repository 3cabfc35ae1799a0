package io.conduit.files;

/** A CSV file that cannot be read as a table: the line (1-based, the header is line 1) and what is wrong there. */
public class MalformedCsvException extends RuntimeException {

    private final long line;

    public MalformedCsvException(long line, String problem) {
        super("malformed CSV at line " + line + ": " + problem);
        this.line = line;
    }

    public long line() {
        return line;
    }
}

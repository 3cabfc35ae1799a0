package io.conduit.runs;

/** A request field that is not what it should be: answered 422, naming the field, before anything is written. */
public class InvalidInputException extends RuntimeException {

    private final String field;

    public InvalidInputException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}

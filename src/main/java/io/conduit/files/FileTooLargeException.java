package io.conduit.files;

/** An upload past {@code conduit.files.max-upload-bytes} (413). */
public class FileTooLargeException extends RuntimeException {
    public FileTooLargeException(long limit) {
        super("the file is larger than " + limit + " bytes (conduit.files.max-upload-bytes)");
    }
}

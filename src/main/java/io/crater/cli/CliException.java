package io.crater.cli;

/** A command's failure: the message shown to the user and the documented exit code it ends with. */
public class CliException extends RuntimeException {

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}

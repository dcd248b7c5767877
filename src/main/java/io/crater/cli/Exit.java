package io.crater.cli;

/** The documented exit codes (docs/cli.md). */
public final class Exit {

    /** Done. */
    public static final int OK = 0;
    /** Any other error: the server refused the request, is unreachable, or answered something unexpected. */
    public static final int ERROR = 1;
    /** A bad command line: unknown verb or flag, missing or malformed argument. */
    public static final int USAGE = 2;
    /** The job, template, account or other object named does not exist (or is not visible to you). */
    public static final int NOT_FOUND = 3;
    /** Not signed in, or not allowed to do this. */
    public static final int DENIED = 4;
    /** Waiting ended before the condition was met (`--timeout`). */
    public static final int TIMED_OUT = 5;

    private Exit() {}

    /** The exit code for an HTTP status the API answered. */
    public static int forStatus(int status) {
        return switch (status) {
            case 401, 403 -> DENIED;
            case 404 -> NOT_FOUND;
            case 400 -> USAGE;
            default -> ERROR;
        };
    }
}

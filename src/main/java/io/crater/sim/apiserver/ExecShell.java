package io.crater.sim.apiserver;

import java.util.List;

/**
 * The shell one {@code pods/exec} session talks to ({@link ExecSession} frames the channels and, with a TTY, plays
 * the terminal's line discipline). What plays the pods provides it ({@link PodExec}); the API server runs no program.
 */
public interface ExecShell {

    /** What a command line printed, its exit status, and whether it asked the shell to exit. */
    record Result(String stdout, String stderr, int status, boolean exit) {}

    /** Whether the session has a terminal (the shell then lists in columns, as on a terminal). */
    void tty(boolean tty);

    /** The program the session was started as ({@code bash}, {@code sh}, ...), which the shell names itself by. */
    void startedAs(String program);

    /** Whether {@code program} is a shell, which without {@code -c} reads command lines from stdin. */
    boolean isShell(String program);

    String prompt();

    /** Runs one command line read from stdin. */
    Result run(String line);

    /** Runs a command given as words (the exec's {@code command} parameters). */
    Result runArgv(List<String> argv);

    /** The terminal's size changed. */
    void resize(int cols, int rows);
}

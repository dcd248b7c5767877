package io.crater.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The simulated shell's text filters, reading the files named or (none, or {@code -}) their input:
 * {@code head}/{@code tail [-n N|-N]}, {@code wc [-lwc]} and {@code grep [-icnv]}. Messages are coreutils' words.
 */
final class TextFilters {

    private TextFilters() {}

    /** The text of the operands (or the input when there are none), each with its name; errors go to stderr. */
    private static List<String[]> inputs(SimShell sh, SimShell.Io io, String cmd, List<String> operands) {
        List<String[]> out = new ArrayList<>();
        if (operands.isEmpty()) {
            out.add(new String[] {null, io.stdin});
        }
        for (String f : operands) {
            try {
                out.add(new String[] {f, f.equals("-") ? io.stdin : SimFiles.read(sh.files.locate(sh.cwd, f, true))});
            } catch (SimFiles.FsError e) {
                io.err
                        .append(cmd)
                        .append(": ")
                        .append(f)
                        .append(": ")
                        .append(e.getMessage())
                        .append('\n');
                out.add(new String[] {f, null});
            }
        }
        return out;
    }

    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    static int headTail(SimShell sh, String cmd, SimShell.Io io) {
        int n = 10;
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < io.args.size(); i++) {
            String a = io.args.get(i);
            String count = a.equals("-n") && i + 1 < io.args.size()
                    ? io.args.get(++i)
                    : a.matches("-n?[0-9]+") ? a.replaceFirst("^-n?", "") : null;
            if (count == null && a.startsWith("-") && !a.equals("-")) {
                return ShellBuiltins.fail(io, 1, cmd + ": invalid option -- '" + a.substring(1) + "'");
            }
            if (count == null) {
                operands.add(a);
            } else if (!count.matches("[0-9]+")) {
                return ShellBuiltins.fail(io, 1, cmd + ": invalid number of lines: '" + count + "'");
            } else {
                n = Integer.parseInt(count);
            }
        }
        int status = 0;
        List<String[]> inputs = inputs(sh, io, cmd, operands);
        for (String[] in : inputs) {
            if (in[1] == null) {
                status = 1;
                continue;
            }
            if (inputs.size() > 1) {
                io.out
                        .append(io.out.isEmpty() ? "" : "\n")
                        .append("==> ")
                        .append(in[0])
                        .append(" <==\n");
            }
            List<String> lines = lines(in[1]);
            List<String> part = cmd.equals("head")
                    ? lines.subList(0, Math.min(n, lines.size()))
                    : lines.subList(Math.max(0, lines.size() - n), lines.size());
            part.forEach(l -> io.out.append(l).append('\n'));
        }
        return status;
    }

    static int wc(SimShell sh, SimShell.Io io) {
        FileCommands.Args a = FileCommands.Args.of(io.args);
        if (a.unknown("lwc") != null) {
            return ShellBuiltins.fail(io, 1, "wc: invalid option -- '" + a.unknown("lwc") + "'");
        }
        String show = a.flags().isEmpty() ? "lwc" : a.flags();
        int status = 0;
        for (String[] in : inputs(sh, io, "wc", a.operands())) {
            if (in[1] == null) {
                status = 1;
                continue;
            }
            String text = in[1];
            long[] counts = {
                text.chars().filter(c -> c == '\n').count(),
                text.isBlank() ? 0 : text.trim().split("\\s+").length,
                text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
            };
            List<String> cols = new ArrayList<>();
            int width = show.length() > 1 && in[0] == null ? 7 : 1;
            for (int i = 0; i < 3; i++) {
                if (show.indexOf("lwc".charAt(i)) >= 0) {
                    cols.add(String.format("%" + width + "d", counts[i]));
                }
            }
            io.out
                    .append(String.join(" ", cols))
                    .append(in[0] == null ? "" : " " + in[0])
                    .append('\n');
        }
        return status;
    }

    static int grep(SimShell sh, SimShell.Io io) {
        FileCommands.Args a = FileCommands.Args.of(io.args);
        if (a.unknown("icnv") != null || a.operands().isEmpty()) {
            return ShellBuiltins.fail(io, 2, "Usage: grep [-icnv] PATTERN [FILE]...");
        }
        Pattern p;
        try {
            p = Pattern.compile(a.operands().get(0), a.flags().contains("i") ? Pattern.CASE_INSENSITIVE : 0);
        } catch (PatternSyntaxException e) {
            return ShellBuiltins.fail(
                    io, 2, "grep: invalid pattern: " + a.operands().get(0));
        }
        List<String[]> inputs =
                inputs(sh, io, "grep", a.operands().subList(1, a.operands().size()));
        boolean matched = false;
        boolean failed = false;
        for (String[] in : inputs) {
            if (in[1] == null) {
                failed = true;
                continue;
            }
            String prefix = inputs.size() > 1 ? in[0] + ":" : "";
            int count = 0;
            List<String> lines = lines(in[1]);
            for (int i = 0; i < lines.size(); i++) {
                if (p.matcher(lines.get(i)).find() != a.flags().contains("v")) {
                    count++;
                    if (!a.flags().contains("c")) {
                        io.out.append(prefix).append(a.flags().contains("n") ? (i + 1) + ":" : "");
                        io.out.append(lines.get(i)).append('\n');
                    }
                }
            }
            if (a.flags().contains("c")) {
                io.out.append(prefix).append(count).append('\n');
            }
            matched |= count > 0;
        }
        return failed ? 2 : matched ? 0 : 1;
    }
}

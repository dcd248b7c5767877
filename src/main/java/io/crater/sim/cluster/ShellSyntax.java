package io.crater.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The grammar of the simulated shell, kept apart from what its commands do: a line becomes a {@link Script} of
 * pipelines joined by {@code ;}, {@code &&} and {@code ||}; a pipeline is commands joined by {@code |}; a command
 * is words and redirections ({@code >}, {@code >>}, {@code <}, {@code 2>}, {@code 2>>}, {@code 2>&1},
 * {@code >&2}). Words keep what quoting said about their parts, so {@link #expand} can apply {@code $VAR},
 * {@code ${VAR}}, {@code $?} and {@code ~} later, when the command runs. Pure: no state, no I/O.
 */
final class ShellSyntax {

    /** A piece of a word: literal text, a variable, or a leading {@code ~} (the home directory). */
    sealed interface Part permits Text, Var, Tilde {}

    /** Literal text; {@code quoted} when it came from quotes or an escape (never split, never a tilde). */
    record Text(String text, boolean quoted) implements Part {}

    /** {@code $name}, {@code ${name}} or {@code $?} (name {@code ?}); {@code quoted} inside double quotes. */
    record Var(String name, boolean quoted) implements Part {}

    /** An unquoted {@code ~} at the start of a word, alone or before {@code /}. */
    record Tilde() implements Part {}

    record Word(List<Part> parts) {}

    /** {@code fd} redirected: to a file ({@code >}, {@code >>}), from one ({@code <}), or to another fd ({@code >&}). */
    record Redirect(int fd, String op, Word target) {}

    record Command(List<Word> words, List<Redirect> redirects) {}

    record Pipeline(List<Command> commands) {}

    /** How a pipeline joins the one before it: always, when it succeeded, when it failed. */
    enum Join {
        ALWAYS,
        AND,
        OR
    }

    record Step(Join join, Pipeline pipeline) {}

    record Script(List<Step> steps) {}

    /** A line the shell cannot read, with the message a POSIX shell gives (exit status 2). */
    static final class SyntaxError extends RuntimeException {
        SyntaxError(String message) {
            super(message);
        }
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=.*", Pattern.DOTALL);

    private ShellSyntax() {}

    /** Parses one line; an empty line or a comment gives an empty script. */
    static Script parse(String line) {
        List<Object> tokens = new Tokenizer(line).tokens();
        List<Step> steps = new ArrayList<>();
        Join join = Join.ALWAYS;
        List<Command> pipeline = new ArrayList<>();
        List<Word> words = new ArrayList<>();
        List<Redirect> redirects = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            Object t = tokens.get(i);
            if (t instanceof Word w) {
                words.add(w);
                continue;
            }
            String op = (String) t;
            if (op.equals("1>&2") || op.equals("2>&1")) {
                redirects.add(
                        new Redirect(op.charAt(0) - '0', ">&", new Word(List.of(new Text(op.substring(3), true)))));
                continue;
            }
            if (isRedirect(op)) {
                if (i + 1 >= tokens.size() || !(tokens.get(i + 1) instanceof Word target)) {
                    throw unexpected(i + 1 < tokens.size() ? (String) tokens.get(i + 1) : "newline");
                }
                redirects.add(new Redirect(fdOf(op), op.replaceFirst("^[0-9]", ""), target));
                i++;
                continue;
            }
            if (words.isEmpty() && redirects.isEmpty()) {
                throw unexpected(op);
            }
            pipeline.add(new Command(List.copyOf(words), List.copyOf(redirects)));
            words.clear();
            redirects.clear();
            if (op.equals("|")) {
                if (i + 1 >= tokens.size()) {
                    throw unexpected("newline");
                }
                continue;
            }
            steps.add(new Step(join, new Pipeline(List.copyOf(pipeline))));
            pipeline.clear();
            join = switch (op) {
                case "&&" -> Join.AND;
                case "||" -> Join.OR;
                default -> Join.ALWAYS;
            };
            if (join != Join.ALWAYS && i + 1 >= tokens.size()) {
                throw unexpected("newline");
            }
        }
        if (!words.isEmpty() || !redirects.isEmpty()) {
            pipeline.add(new Command(List.copyOf(words), List.copyOf(redirects)));
            steps.add(new Step(join, new Pipeline(List.copyOf(pipeline))));
        }
        return new Script(List.copyOf(steps));
    }

    private static boolean isRedirect(String op) {
        return op.contains(">") || op.contains("<");
    }

    /** The fd an operator redirects: its leading digit, else 0 for input and 1 for output. */
    private static int fdOf(String op) {
        return Character.isDigit(op.charAt(0)) ? op.charAt(0) - '0' : op.startsWith("<") ? 0 : 1;
    }

    private static SyntaxError unexpected(String token) {
        return new SyntaxError("syntax error near unexpected token `" + token + "'");
    }

    /** The variable a word assigns ({@code NAME=value} with an unquoted name), else null. */
    static String assignment(Word w) {
        if (w.parts().isEmpty() || !(w.parts().get(0) instanceof Text t) || t.quoted()) {
            return null;
        }
        var m = ASSIGNMENT.matcher(t.text());
        return m.matches() ? m.group(1) : null;
    }

    /** The value an assignment word gives: everything after {@code =}, expanded, never split. */
    static String assignedValue(Word w, UnaryOperator<String> vars, String home) {
        Text first = (Text) w.parts().get(0);
        List<Part> rest = new ArrayList<>();
        rest.add(new Text(first.text().substring(first.text().indexOf('=') + 1), true));
        rest.addAll(w.parts().subList(1, w.parts().size()));
        return String.join(" ", expand(new Word(rest), vars, home));
    }

    /**
     * The fields a word expands to: variables replaced (unset ones are empty), {@code ~} replaced by {@code home},
     * and what unquoted variables gave split at whitespace. A word of only an unquoted empty variable gives none.
     */
    static List<String> expand(Word w, UnaryOperator<String> vars, String home) {
        List<String> fields = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean present = false;
        for (Part p : w.parts()) {
            if (p instanceof Text t) {
                cur.append(t.text());
                present |= t.quoted() || !t.text().isEmpty();
            } else if (p instanceof Tilde) {
                cur.append(home);
                present = true;
            } else if (p instanceof Var v) {
                String value = vars.apply(v.name());
                value = value == null ? "" : value;
                if (v.quoted()) {
                    cur.append(value);
                    present = true;
                    continue;
                }
                String[] pieces = value.split("[ \t\n]+", -1);
                for (int i = 0; i < pieces.length; i++) {
                    if (i > 0 && present) {
                        fields.add(cur.toString());
                        cur.setLength(0);
                        present = false;
                    }
                    cur.append(pieces[i]);
                    present |= !pieces[i].isEmpty();
                }
            }
        }
        if (present) {
            fields.add(cur.toString());
        }
        return fields;
    }

    /** Turns a line into words ({@link Word}) and operators (strings). */
    private static final class Tokenizer {
        private final String line;
        private final List<Object> out = new ArrayList<>();
        private List<Part> parts;
        private StringBuilder text;
        private boolean textQuoted;
        private int i;

        Tokenizer(String line) {
            this.line = line;
        }

        List<Object> tokens() {
            for (i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == ' ' || c == '\t') {
                    endWord();
                } else if (c == '\n' || c == ';') {
                    endWord();
                    out.add(";");
                } else if (c == '#' && parts == null) {
                    break;
                } else if (c == '&' || c == '|' || c == '>' || c == '<') {
                    operator(c);
                } else if (c == '\'') {
                    single();
                } else if (c == '"') {
                    doubleQuoted();
                } else if (c == '\\') {
                    if (i + 1 < line.length()) {
                        literal(line.charAt(++i), true);
                    }
                } else if (c == '$') {
                    dollar(false);
                } else if (c == '`') {
                    throw new SyntaxError("command substitution (`...`) is not supported");
                } else if (c == '~'
                        && parts == null
                        && (i + 1 == line.length() || "/ \t;|&<>".indexOf(line.charAt(i + 1)) >= 0)) {
                    part(new Tilde());
                } else {
                    literal(c, false);
                }
            }
            endWord();
            while (!out.isEmpty() && ";".equals(out.get(out.size() - 1))) {
                out.remove(out.size() - 1);
            }
            if (!out.isEmpty() && ";".equals(out.get(0))) {
                throw unexpected(";");
            }
            return out;
        }

        private void operator(char c) {
            String next2 = line.substring(i, Math.min(i + 2, line.length()));
            String next3 = line.substring(i, Math.min(i + 3, line.length()));
            String fd = null;
            if ((c == '>' || c == '<')
                    && parts != null
                    && parts.isEmpty()
                    && text != null
                    && !textQuoted
                    && text.toString().matches("[012]")) {
                fd = text.toString();
                text = null;
                parts = null;
            }
            endWord();
            String op;
            if (c == '&') {
                if (!next2.equals("&&")) {
                    throw new SyntaxError("running in the background (&) is not supported");
                }
                op = "&&";
            } else if (c == '|') {
                op = next2.equals("||") ? "||" : "|";
            } else if (c == '<') {
                op = "<";
            } else if (next3.equals(">&1") || next3.equals(">&2")) {
                op = next3;
            } else {
                op = next2.equals(">>") ? ">>" : ">";
            }
            i += op.length() - 1;
            if (op.startsWith(">&")) {
                // 2>&1 (fd 2 to where 1 goes) or >&2 / 1>&2 (fd 1 to where 2 goes).
                String full = (fd == null ? "1" : fd) + op;
                if (!full.equals("1>&2") && !full.equals("2>&1")) {
                    throw new SyntaxError("the redirection " + full + " is not supported");
                }
                out.add(full);
                return;
            }
            out.add(fd == null ? op : fd + op);
        }

        private void single() {
            int end = line.indexOf('\'', i + 1);
            if (end < 0) {
                throw new SyntaxError("unexpected EOF while looking for matching `''");
            }
            startWord();
            flushText();
            parts.add(new Text(line.substring(i + 1, end), true));
            i = end;
        }

        private void doubleQuoted() {
            startWord();
            flushText();
            StringBuilder sb = new StringBuilder();
            for (i++; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '"') {
                    parts.add(new Text(sb.toString(), true));
                    return;
                }
                if (c == '\\' && i + 1 < line.length() && "$`\"\\\n".indexOf(line.charAt(i + 1)) >= 0) {
                    sb.append(line.charAt(++i));
                } else if (c == '$') {
                    parts.add(new Text(sb.toString(), true));
                    sb.setLength(0);
                    dollar(true);
                } else if (c == '`') {
                    throw new SyntaxError("command substitution (`...`) is not supported");
                } else {
                    sb.append(c);
                }
            }
            throw new SyntaxError("unexpected EOF while looking for matching `\"'");
        }

        /** {@code $NAME}, {@code ${NAME}}, {@code $?}, {@code $0}..{@code $9}; a lone {@code $} stays literal. */
        private void dollar(boolean quoted) {
            char n = i + 1 < line.length() ? line.charAt(i + 1) : 0;
            if (n == '(') {
                throw new SyntaxError("command substitution ($(...)) is not supported");
            }
            String name = null;
            if (n == '{') {
                int end = line.indexOf('}', i + 2);
                String inside = end < 0 ? "" : line.substring(i + 2, end);
                if (end < 0 || !(NAME.matcher(inside).matches() || inside.equals("?"))) {
                    throw new SyntaxError(line.substring(i, end < 0 ? line.length() : end + 1) + ": bad substitution");
                }
                name = inside;
                i = end;
            } else if (n == '?' || Character.isDigit(n)) {
                name = String.valueOf(n);
                i++;
            } else if (Character.isLetter(n) || n == '_') {
                int j = i + 1;
                while (j < line.length() && (Character.isLetterOrDigit(line.charAt(j)) || line.charAt(j) == '_')) {
                    j++;
                }
                name = line.substring(i + 1, j);
                i = j - 1;
            }
            if (name == null) {
                if (quoted) {
                    parts.add(new Text("$", true));
                } else {
                    literal('$', false);
                }
                return;
            }
            startWord();
            flushText();
            parts.add(new Var(name, quoted));
        }

        private void literal(char c, boolean quoted) {
            startWord();
            if (text != null && textQuoted != quoted) {
                flushText();
            }
            if (text == null) {
                text = new StringBuilder();
                textQuoted = quoted;
            }
            text.append(c);
        }

        private void part(Part p) {
            startWord();
            flushText();
            parts.add(p);
        }

        private void startWord() {
            if (parts == null) {
                parts = new ArrayList<>();
            }
        }

        private void flushText() {
            if (text != null) {
                parts.add(new Text(text.toString(), textQuoted));
                text = null;
            }
        }

        private void endWord() {
            if (parts == null) {
                return;
            }
            flushText();
            out.add(new Word(List.copyOf(parts)));
            parts = null;
        }
    }
}

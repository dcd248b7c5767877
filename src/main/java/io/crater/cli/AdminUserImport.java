package io.crater.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Many users at once from a CSV file; the answer says, line by line, who was created and who was not and why. */
@Command(
        name = "import",
        description = {
            "Create users from a CSV file: username,displayName,email,password,account,accountRole (only username is"
                    + " required).",
            "Every line is reported: created (with its generated password) or refused (with the reason). Exits 1 when"
                    + " a line was refused; the others are created all the same."
        })
final class AdminUserImport extends Verb {

    @Option(
            names = {"-f", "--file"},
            required = true,
            paramLabel = "FILE",
            description = "The CSV file ('-' reads standard input).")
    String file;

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.line"), "line"),
                Output.Column.path(msg.get("col.user"), "username"),
                Output.Column.state(msg.get("col.result"), o -> Values.text(o, "result")),
                Output.Column.of(msg.get("col.detail"), o -> Values.text(o, "detail")));
    }

    @Override
    protected int execute() {
        String csv = VerbInputs.file(this, file);
        Object report = Api.json(
                api().send("POST", "/api/v1/users/import", csv.getBytes(StandardCharsets.UTF_8), "text/csv", Map.of()));
        List<Object> created = Values.list(Values.at(report, "created"));
        List<Object> refused = Values.list(Values.at(report, "refused"));
        if (output().human()) {
            List<Object> rows = new ArrayList<>();
            created.forEach(c -> rows.add(row(c, "created", Values.text(c, "password"))));
            refused.forEach(r -> rows.add(row(r, "refused", Values.text(r, "reason"))));
            rows.sort(Comparator.comparingLong(o -> ((Number) Values.at(o, "line")).longValue()));
            output().list(List.of(rows).iterator(), columns(msg()), o -> Values.text(o, "username"));
            err().println(msg().get("import.summary", created.size(), refused.size()));
        } else {
            output().object(report);
        }
        return refused.isEmpty() ? Exit.OK : Exit.ERROR;
    }

    private static Object row(Object line, String result, String detail) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("line", Values.at(line, "line"));
        m.put("username", Values.text(line, "username"));
        m.put("result", result);
        m.put("detail", detail);
        return m;
    }
}

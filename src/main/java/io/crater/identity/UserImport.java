package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Bulk creation of users from CSV (a course: hundreds at once). Every row is checked first; the rows that pass
 * are created in one transaction, each with its personal account and, when the row names one, a membership.
 * The report lists what was created (with generated passwords) and what was refused, by line.
 */
@ApplicationScoped
public class UserImport {

    static final int MAX_ROWS = 5000;
    static final List<String> COLUMNS =
            List.of("username", "displayname", "email", "password", "account", "accountrole");

    /** One created user; the password is there when Crater generated it. */
    public record CreatedRow(int line, String username, String password) {}

    /** One refused row and why. */
    public record RefusedRow(int line, String username, String reason) {}

    /** What an import did. */
    public record Report(List<CreatedRow> created, List<RefusedRow> refused) {}

    private record Row(int line, NewUser user, String account, String accountRole) {}

    @Inject
    UserService users;

    @Inject
    AuditTrail audit;

    @Inject
    UserAccounts accounts;

    @Inject
    Vertx vertx;

    public Uni<Report> importCsv(String csv, Caller caller) {
        UserService.requireAdmin(caller);
        List<List<String>> lines = Csv.parse(csv == null ? "" : csv);
        if (lines.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidCsv",
                            "the CSV is empty; the first line names the columns: " + String.join(",", COLUMNS),
                            null));
        }
        List<String> header = lines.get(0).stream()
                .map(h -> h.trim().toLowerCase(Locale.ROOT))
                .toList();
        if (!header.contains("username") || !COLUMNS.containsAll(header)) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidCsv",
                            "the first line must name the columns, 'username' required, known: username,displayName,email,password,account,accountRole",
                            null));
        }
        if (lines.size() - 1 > MAX_ROWS) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidCsv", "at most " + MAX_ROWS + " rows per import", null));
        }
        List<RefusedRow> refused = new ArrayList<>();
        List<Row> candidates = candidates(lines, header, refused);
        return Panache.withSession(() -> existing(candidates)).flatMap(known -> {
            List<Row> valid = new ArrayList<>();
            for (Row r : candidates) {
                if (known.users().contains(r.user().username())) {
                    refused.add(new RefusedRow(r.line(), r.user().username(), "a user with this name exists already"));
                } else if (!r.account().isEmpty() && !known.accounts().containsKey(r.account())) {
                    refused.add(new RefusedRow(r.line(), r.user().username(), "no team account '" + r.account() + "'"));
                } else {
                    valid.add(r);
                }
            }
            return create(valid, known, refused, caller);
        });
    }

    /** Hashes the passwords off the event loop, creates the users in one transaction and reports every line. */
    private Uni<Report> create(List<Row> valid, Known known, List<RefusedRow> refused, Caller caller) {
        return vertx.executeBlocking(Uni.createFrom()
                        .item(() -> valid.stream()
                                .map(r -> new Row(
                                        r.line(),
                                        new NewUser(
                                                r.user().username(),
                                                r.user().displayName(),
                                                r.user().email(),
                                                "user",
                                                r.user().password(),
                                                PasswordHasher.hash(r.user().password()),
                                                r.user().generated()),
                                        r.account(),
                                        r.accountRole()))
                                .toList()))
                .flatMap(hashed -> Panache.withTransaction(() -> insertAll(hashed, caller.actor(null)))
                        .replaceWith(hashed))
                .map(hashed -> {
                    List<CreatedRow> created = hashed.stream()
                            .map(r -> new CreatedRow(
                                    r.line(),
                                    r.user().username(),
                                    r.user().generated() ? r.user().password() : null))
                            .toList();
                    List<RefusedRow> sorted = new ArrayList<>(refused);
                    sorted.sort(java.util.Comparator.comparingInt(RefusedRow::line));
                    return new Report(created, sorted);
                });
    }

    /** The rows that may be created, as far as the file alone tells; the others go to {@code refused}. */
    private List<Row> candidates(List<List<String>> lines, List<String> header, List<RefusedRow> refused) {
        List<Row> candidates = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < lines.size(); i++) {
            List<String> cells = lines.get(i);
            if (cells.size() == 1 && cells.get(0).isBlank()) {
                continue;
            }
            Map<String, String> row = new HashMap<>();
            for (int c = 0; c < header.size(); c++) {
                row.put(header.get(c), c < cells.size() ? cells.get(c).trim() : "");
            }
            int lineNo = i + 1;
            if (cells.size() > header.size()) {
                refused.add(new RefusedRow(lineNo, row.get("username"), "more cells than columns"));
                continue;
            }
            List<Problem.FieldError> errors = new ArrayList<>();
            NewUser u = users.check(
                    new UserService.CreateUser(
                            row.get("username"), row.get("displayname"), row.get("email"), row.get("password"), "user"),
                    "",
                    errors);
            String role = row.getOrDefault("accountrole", "").isEmpty() ? "member" : row.get("accountrole");
            if (!Set.of("admin", "member").contains(role)) {
                errors.add(new Problem.FieldError("accountRole", "admin or member"));
            }
            if (!errors.isEmpty()) {
                refused.add(new RefusedRow(
                        lineNo,
                        row.get("username"),
                        errors.get(0).field() + ": " + errors.get(0).message()));
            } else if (!seen.add(u.username())) {
                refused.add(new RefusedRow(lineNo, u.username(), "username appears twice in this file"));
            } else {
                candidates.add(new Row(lineNo, u, row.getOrDefault("account", ""), role));
            }
        }
        return candidates;
    }

    private record Known(Set<String> users, Map<String, Long> accounts) {}

    private Uni<Known> existing(List<Row> rows) {
        List<String> names = rows.stream().map(r -> r.user().username()).toList();
        List<String> slugs = rows.stream()
                .map(Row::account)
                .filter(a -> !a.isEmpty())
                .distinct()
                .toList();
        Uni<List<String>> users = names.isEmpty()
                ? Uni.createFrom().item(List.of())
                : Sql.strings(
                        "SELECT lower(username) FROM users WHERE lower(username) IN (" + placeholders(names.size())
                                + ")",
                        names.toArray());
        return users.flatMap(u -> accounts.activeTeams(slugs).map(teams -> new Known(new HashSet<>(u), teams)));
    }

    private static String placeholders(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append(i == 1 ? "" : ", ").append('?').append(i);
        }
        return sb.toString();
    }

    /** Inserts each user; the account feature adds them to their team account in the same transaction. */
    private Uni<Void> insertAll(List<Row> rows, Actor actor) {
        return io.crater.platform.Unis.sequentially(
                rows,
                r -> users.insert(
                                r.account().isEmpty()
                                        ? r.user()
                                        : r.user()
                                                .withAccounts(List.of(
                                                        new UserCreated.AccountRole(r.account(), r.accountRole()))),
                                actor)
                        .replaceWithVoid());
    }
}

package io.crater.job;

import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.job.TemplateViews.Parameter;
import io.crater.job.TemplateViews.SaveTemplate;
import io.crater.job.TemplateViews.Template;
import io.crater.job.TemplateViews.TemplateSummary;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Templates: built-in ones (from {@code templates/builtin.yaml}, saved as a new version whenever that file
 * changes) and those users save, private, shared with an account, or public. Every change is a new version; a
 * job records the version it was rendered from.
 */
@ApplicationScoped
public class TemplateService {

    private static final Pattern ID = Pattern.compile("^[a-z0-9][a-z0-9-]{1,62}$");

    static final String SELECT = "SELECT t.id, t.public_id, t.builtin, t.visibility, t.account_id, v.version,"
            + " t.updated_at, v.name, v.description, v.kind, CAST(v.parameters AS text), CAST(v.spec AS text), t.owner_id"
            + " FROM job_templates t JOIN job_template_versions v ON v.template_id = t.id";

    /**
     * Visible to the user in parameter ?n whose accounts' ids are in parameter ?m (comma-separated): public, their
     * own, or shared with one of their accounts.
     */
    static String visibleTo(int n, int m) {
        return " AND (t.visibility = 'public' OR t.owner_id = ?" + n + " OR (t.visibility = 'account'"
                + " AND t.account_id IN (SELECT unnest(string_to_array(?" + m + ", ','))::bigint)))";
    }

    /** The caller's accounts' ids as {@link #visibleTo} takes them. */
    private Uni<String> accountIds(Caller caller) {
        return accounts.accountIdsOf(caller.userId()).map(ids -> Sql.commaList(ids));
    }

    /** The rows with the slugs of the accounts they are shared with and their authors' usernames. */
    private Uni<List<TemplateRow>> named(List<TemplateRow> rows) {
        java.util.Set<Long> accountIds = new java.util.HashSet<>();
        java.util.Set<Long> userIds = new java.util.HashSet<>();
        rows.forEach(r -> {
            if (r.accountId() != null) {
                accountIds.add(r.accountId());
            }
            if (r.ownerId() != null) {
                userIds.add(r.ownerId());
            }
        });
        return accounts.slugs(accountIds)
                .flatMap(slugs -> users.usernames(userIds)
                        .map(names -> rows.stream()
                                .map(r -> r.named(
                                        r.accountId() == null ? null : slugs.get(r.accountId()),
                                        r.ownerId() == null ? null : names.get(r.ownerId())))
                                .toList()));
    }

    @Inject
    io.crater.account.AccountService accounts;

    @Inject
    io.crater.identity.UserService users;

    @Inject
    AuditService audit;

    /** A template version resolved for a submission. */
    record Resolved(
            long templateId, String publicId, int version, JobViews.SubmitJob spec, Map<String, Object> values) {}

    void onStart(@Observes @Priority(25) StartupEvent event) throws Throwable {
        for (BuiltinTemplates.Builtin b : BuiltinTemplates.all()) {
            List<Problem.FieldError> errors =
                    JobTemplates.checkDefinition(b.save().parameters(), b.save().spec());
            if (!errors.isEmpty()) {
                throw new IllegalStateException("built-in template " + b.id() + " is not valid: " + errors);
            }
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> seed(b.id(), b.save())));
        }
    }

    private Uni<Void> seed(String id, SaveTemplate save) {
        return Sql.insertReturningId(
                        "INSERT INTO job_templates (public_id, builtin, visibility, version) VALUES (?1, TRUE, 'public', 0)"
                                + " ON CONFLICT (public_id) DO UPDATE SET public_id = EXCLUDED.public_id RETURNING id",
                        id)
                .flatMap(dbId -> saveVersion(dbId, save, null))
                .replaceWithVoid();
    }

    public Uni<List<TemplateSummary>> list(Caller caller, String kind) {
        return Panache.withSession(() -> accountIds(caller).flatMap(mine -> {
                    List<Object> params = new ArrayList<>();
                    StringBuilder sql =
                            new StringBuilder(SELECT + " WHERE v.version = t.version AND t.deleted_at IS NULL");
                    if (!caller.platformAdmin()) {
                        params.add(caller.userId());
                        params.add(mine);
                        sql.append(visibleTo(1, 2));
                    }
                    if (kind != null && !kind.isBlank()) {
                        params.add(kind);
                        sql.append(" AND v.kind = ?").append(params.size());
                    }
                    sql.append(" ORDER BY t.builtin DESC, v.name, t.id LIMIT 500");
                    return Sql.rows(sql.toString(), params.toArray())
                            .flatMap(rows ->
                                    named(rows.stream().map(TemplateRow::of).toList()));
                }))
                .map(rows -> rows.stream().map(TemplateService::summaryOf).toList());
    }

    public Uni<Template> get(String id, Integer version, Caller caller) {
        return Panache.withSession(() -> visible(id, version, caller)).map(r -> templateOf(r, caller));
    }

    public Uni<List<TemplateViews.TemplateVersion>> versions(String id, Caller caller) {
        return Panache.withSession(() -> visible(id, null, caller)
                .flatMap(r -> Sql.rows(
                                "SELECT v.version, v.created_at, v.created_by FROM job_template_versions v"
                                        + " WHERE v.template_id = ?1 ORDER BY v.version DESC",
                                r.id())
                        .map(rows -> rows.stream().map(VersionRow::of).toList())
                        .flatMap(rows -> users.usernames(rows.stream()
                                        .map(VersionRow::createdBy)
                                        .filter(java.util.Objects::nonNull)
                                        .collect(java.util.stream.Collectors.toSet()))
                                .map(names -> rows.stream()
                                        .map(v -> new TemplateViews.TemplateVersion(
                                                v.version(),
                                                v.createdAt(),
                                                v.createdBy() == null ? null : names.get(v.createdBy())))
                                        .toList()))));
    }

    /** A version as listed: its number, when and by whom (null: built in). */
    private record VersionRow(int version, Instant createdAt, Long createdBy) {
        static VersionRow of(Object[] r) {
            return new VersionRow(
                    ((Number) r[0]).intValue(), Sql.instant(r[1]), r[2] == null ? null : Sql.longOf(r[2]));
        }
    }

    /** The template row (at the version asked for, else the latest) if the caller may see it. */
    private Uni<TemplateRow> visible(String id, Integer version, Caller caller) {
        if (id == null || !ID.matcher(id).matches()) {
            return Uni.createFrom().failure(ApiException.notFound("no template " + id));
        }
        return accountIds(caller).flatMap(mine -> {
            List<Object> params = new ArrayList<>(List.of(id));
            String sql = SELECT + " WHERE t.public_id = ?1 AND t.deleted_at IS NULL";
            if (!caller.platformAdmin()) {
                params.add(caller.userId());
                params.add(mine);
                sql += visibleTo(params.size() - 1, params.size());
            }
            if (version == null) {
                sql += " AND v.version = t.version";
            } else {
                params.add(version);
                sql += " AND v.version = ?" + params.size();
            }
            return Sql.row(sql, params.toArray())
                    .map(r -> r.map(TemplateRow::of)
                            .orElseThrow(() -> ApiException.notFound(
                                    version == null
                                            ? "no template " + id
                                            : "no version " + version + " of template " + id)))
                    .flatMap(r -> named(List.of(r)).map(rows -> rows.get(0)));
        });
    }

    public Uni<Template> create(SaveTemplate req, Caller caller) {
        check(req);
        String publicId = "t" + JobNames.newPublicId().substring(1);
        return Panache.withTransaction(() -> accountOf(req, caller)
                        .flatMap(accountId -> Sql.insertReturningId(
                                "INSERT INTO job_templates (public_id, owner_id, visibility, account_id, version)"
                                        + " VALUES (?1, ?2, ?3, ?4, 0) RETURNING id",
                                publicId,
                                caller.userId(),
                                req.visibility(),
                                accountId))
                        .flatMap(dbId -> saveVersion(dbId, req, caller.userId()))
                        .call(v -> audit.record(
                                caller.actor(req.account()),
                                "template.create",
                                "template",
                                publicId,
                                null,
                                Map.of("name", req.name(), "visibility", req.visibility()))))
                .flatMap(v -> get(publicId, null, caller));
    }

    /** Saves a new version (nothing changes when the content is the same as the latest version's). */
    public Uni<Template> update(String id, SaveTemplate req, Caller caller) {
        check(req);
        return Panache.withTransaction(() -> editable(id, caller)
                        .flatMap(dbId -> accountOf(req, caller)
                                .flatMap(accountId -> Sql.update(
                                        "UPDATE job_templates SET visibility = ?2, account_id = ?3 WHERE id = ?1",
                                        dbId,
                                        req.visibility(),
                                        accountId))
                                .flatMap(n -> saveVersion(dbId, req, caller.userId())))
                        .call(v -> audit.record(
                                caller.actor(req.account()),
                                "template.update",
                                "template",
                                id,
                                null,
                                Map.of("version", v))))
                .flatMap(v -> get(id, null, caller));
    }

    public Uni<Void> delete(String id, Caller caller) {
        return Panache.withTransaction(() -> editable(id, caller)
                .flatMap(dbId -> Sql.update(
                        "UPDATE job_templates SET deleted_at = now(), updated_at = now() WHERE id = ?1", dbId))
                .flatMap(n -> audit.record(caller.actor(null), "template.delete", "template", id, null, null)));
    }

    /** The template's database id if the caller may change it: its author, or a platform admin. */
    private Uni<Long> editable(String id, Caller caller) {
        return visible(id, null, caller).map(r -> {
            if (r.builtin()) {
                throw ApiException.forbidden("BuiltinTemplate", "built-in templates cannot be changed; save a copy");
            }
            if (!caller.platformAdmin() && !r.ownedBy(caller.userId())) {
                throw ApiException.forbidden("NotTemplateOwner", "only the template's author may change it");
            }
            return r.id();
        });
    }

    /** Renders a visible template version with the values given. */
    public Uni<TemplateViews.Rendered> render(String id, TemplateViews.RenderRequest req, Caller caller) {
        Map<String, Object> values = req == null ? Map.of() : req.parameters();
        Integer version = req == null ? null : req.version();
        return Panache.withSession(() -> resolve(new JobViews.TemplateRef(id, version, values), caller))
                .map(r -> {
                    JobViews.SubmitJob spec =
                            r.spec().withLinks(new JobViews.TemplateRef(r.publicId(), r.version(), r.values()), null);
                    return new TemplateViews.Rendered(spec, Json.yaml(spec));
                });
    }

    /** Finds the template version a submission names and renders it (in the caller's session). */
    Uni<Resolved> resolve(JobViews.TemplateRef ref, Caller caller) {
        if (ref.id() == null) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidJob",
                            "name the template",
                            List.of(new Problem.FieldError("template.id", "required"))));
        }
        return visible(ref.id(), ref.version(), caller).map(r -> {
            List<Parameter> params = List.of(Json.read(r.parametersJson(), Parameter[].class));
            Object spec = Json.read(r.specJson());
            JobViews.SubmitJob rendered = JobTemplates.render(params, spec, ref.parameters());
            return new Resolved(
                    r.id(), ref.id(), r.version(), rendered, JobTemplates.asStrings(params, ref.parameters()));
        });
    }

    /** Saves a job's spec as a new template without parameters. */
    Uni<Template> fromJob(JobViews.SubmitJob spec, TemplateViews.SaveJobAsTemplate req, Caller caller) {
        if (req == null) {
            throw ApiException.badRequest(
                    "InvalidTemplate", "a body is required", List.of(new Problem.FieldError("body", "required")));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> body = Json.convert(Json.tree(spec.withLinks(null, null)), Map.class);
        body.values().removeIf(v -> v == null);
        return create(
                new SaveTemplate(req.name(), req.description(), req.visibility(), req.account(), List.of(), body),
                caller);
    }

    private static void check(SaveTemplate req) {
        if (req == null) {
            throw ApiException.badRequest(
                    "InvalidTemplate", "a body is required", List.of(new Problem.FieldError("body", "required")));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req.name() == null || req.name().isBlank() || req.name().length() > 100) {
            errors.add(new Problem.FieldError("name", "1 to 100 characters"));
        }
        if (req.description() != null && req.description().length() > 2000) {
            errors.add(new Problem.FieldError("description", "at most 2000 characters"));
        }
        if (req.visibility() == null || !List.of("private", "account", "public").contains(req.visibility())) {
            errors.add(new Problem.FieldError("visibility", "private, account or public"));
        } else if (req.visibility().equals("account")
                == (req.account() == null || req.account().isBlank())) {
            errors.add(new Problem.FieldError(
                    "account",
                    req.visibility().equals("account")
                            ? "name the account to share with"
                            : "only for visibility 'account'"));
        }
        errors.addAll(JobTemplates.checkDefinition(req.parameters(), req.spec()));
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidTemplate", "the template cannot be saved as given", errors);
        }
    }

    /** The account a template is shared with: the caller must be a member. Null unless visibility is account. */
    private Uni<Long> accountOf(SaveTemplate req, Caller caller) {
        if (!"account".equals(req.visibility())) {
            return Uni.createFrom().nullItem();
        }
        return accounts.memberAccountId(req.account().trim(), caller.userId())
                .map(id -> id.orElseThrow(() -> ApiException.forbidden(
                        "NotAMember", "you are not a member of account '" + req.account() + "'")));
    }

    /** Adds a version when the content differs from the latest; returns the current version. */
    private static Uni<Integer> saveVersion(long dbId, SaveTemplate req, Long userId) {
        String kind = (String) req.spec().get("kind");
        List<Parameter> params = req.parameters() == null ? List.of() : req.parameters();
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("name", req.name().trim());
        content.put("description", req.description() == null ? "" : req.description());
        content.put("parameters", params);
        content.put("spec", req.spec());
        String digest = digest(Json.write(Json.tree(content)));
        return Sql.rows(
                        "SELECT v.version, v.digest FROM job_templates t LEFT JOIN job_template_versions v"
                                + " ON v.template_id = t.id AND v.version = t.version WHERE t.id = ?1 FOR UPDATE OF t",
                        dbId)
                .flatMap(rows -> {
                    Object[] latest = rows.get(0);
                    if (digest.equals(latest[1])) {
                        return Uni.createFrom().item(((Number) latest[0]).intValue());
                    }
                    return Sql.rows(
                                    "UPDATE job_templates SET version = version + 1, updated_at = now() WHERE id = ?1 RETURNING version",
                                    dbId)
                            .flatMap(v -> {
                                int next = ((Number) v.get(0)[0]).intValue();
                                return Sql.update(
                                                "INSERT INTO job_template_versions (template_id, version, name, description, kind, parameters, spec, digest, created_by)"
                                                        + " VALUES (?1, ?2, ?3, ?4, ?5, CAST(CAST(?6 AS text) AS jsonb), CAST(CAST(?7 AS text) AS jsonb), ?8, ?9)",
                                                dbId,
                                                next,
                                                req.name().trim(),
                                                req.description() == null ? "" : req.description(),
                                                kind,
                                                Json.write(params),
                                                Json.write(req.spec()),
                                                digest,
                                                userId)
                                        .replaceWith(next);
                            });
                });
    }

    private static String digest(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static TemplateSummary summaryOf(TemplateRow r) {
        return new TemplateSummary(
                r.publicId(),
                r.name(),
                r.description(),
                r.kind(),
                r.builtin(),
                r.visibility(),
                r.account(),
                r.owner(),
                r.version(),
                r.updatedAt(),
                r.builtin() ? BuiltinTemplates.texts(r.publicId()) : null);
    }

    private static Template templateOf(TemplateRow r, Caller caller) {
        TemplateSummary s = summaryOf(r);
        boolean canEdit = !s.builtin() && (caller.platformAdmin() || r.ownedBy(caller.userId()));
        return new Template(
                s.id(),
                s.name(),
                s.description(),
                s.kind(),
                s.builtin(),
                s.visibility(),
                s.account(),
                s.owner(),
                s.version(),
                s.updatedAt(),
                s.i18n(),
                List.of(Json.read(r.parametersJson(), Parameter[].class)),
                Json.read(r.specJson()),
                canEdit);
    }
}

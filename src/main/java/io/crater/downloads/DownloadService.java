package io.crater.downloads;

import io.crater.account.AccountService;
import io.crater.assets.DownloadedEntries;
import io.crater.credential.CredentialService;
import io.crater.files.FileTargets;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Problem;
import io.crater.policy.HubDownloads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Downloads from a model hub into a file space (docs/assets.md, downloads): resolved to a commit first, not started
 * again when the same thing was downloaded already, run as a job of kind {@code download}, catalogued at the end.
 * Who sees a download is decided as for the entry it makes; only its owner (or a platform admin) acts on it.
 */
@ApplicationScoped
public class DownloadService {

    @Inject
    DownloadQueries queries;

    @Inject
    DownloadStarts starts;

    @Inject
    DownloadedEntries entries;

    @Inject
    FileTargets targets;

    @Inject
    HubClient hub;

    @Inject
    DownloadsConfig config;

    @Inject
    CredentialService credentials;

    @Inject
    UserService users;

    @Inject
    AccountService accounts;

    @Inject
    AuditTrail audit;

    /** A create's answer: the download, and whether it is a new one (false: an earlier one of the same thing). */
    public record Answer(DownloadViews.Download download, boolean created) {}

    /** The request as checked; {@code space} as the file API names it. */
    record Checked(
            DownloadViews.CreateDownload req,
            String hub,
            DownloadedEntries.Fields fields,
            String space,
            String revision) {}

    /** The target folder and the revision as the hub answered. */
    private record Prepared(FileTargets.Target target, HubClient.Resolved resolved) {}

    public Uni<Answer> create(DownloadViews.CreateDownload req, String accountHeader, Caller caller) {
        Checked c = DownloadChecks.check(req, caller);
        String endpoint = DownloadStarts.endpoint(config, c.hub());
        return Panache.withTransaction(() -> token(caller, req.credential(), c.hub()))
                .flatMap(token -> blocking(() -> {
                    FileTargets.Inspected t = targets.writable(caller, c.space(), req.path(), false);
                    if (!t.ok()) {
                        throw DownloadChecks.invalid(List.of(new Problem.FieldError(t.field(), t.refusal())));
                    }
                    return new Prepared(
                            t.target(),
                            hub.resolve(
                                    c.hub(), endpoint, req.kind(), req.repository(), c.revision(), token.orElse(null)));
                }))
                .flatMap(p -> OnContext.run(() -> Panache.withTransaction(() -> queries.lockKey(
                                key(c, p.resolved().sha()))
                        .flatMap(locked -> viewer(caller))
                        .flatMap(v -> queries.same(v, key(c, p.resolved().sha())))
                        .flatMap(same -> same.isPresent()
                                ? Uni.createFrom().item(new Found(same.get(), false))
                                : fresh(c, p, endpoint, accountHeader, caller).map(row -> new Found(row, true)))
                        .flatMap(f -> lookups(List.of(f.row())).map(l -> new Object[] {l, f.created()})))))
                .flatMap(x -> render((Lookups) x[0], caller)
                        .map(d -> (Boolean) x[1]
                                ? new Answer(d.get(0), true)
                                : new Answer(d.get(0).asDuplicate(), false)));
    }

    private record Found(DownloadQueries.DownloadRow row, boolean created) {}

    /** A new download: the name free, the account one the owner is in, room within the limits; then its job. */
    private Uni<DownloadQueries.DownloadRow> fresh(
            Checked c, Prepared p, String endpoint, String accountHeader, Caller caller) {
        DownloadViews.CreateDownload req = c.req();
        String jobAccount = DownloadStarts.jobAccount(p.target().space(), accountHeader);
        List<HubDownloads.HubFile> files =
                HubDownloads.select(c.hub(), p.resolved().files(), req.include(), req.exclude());
        List<String> warnings = new ArrayList<>();
        if (HubDownloads.isSha(req.revision())
                && !req.revision().equals(p.resolved().sha())) {
            warnings.add("asked for commit " + req.revision() + ", the hub answered "
                    + p.resolved().sha());
        }
        if (files.isEmpty()) {
            throw DownloadChecks.invalid(List.of(new Problem.FieldError(
                    "include",
                    "no file of " + req.repository() + " at " + p.resolved().sha() + " matches")));
        }
        return entries.nameTaken(caller.userId(), req.kind(), c.fields().name())
                .flatMap(taken -> {
                    if (taken) {
                        throw ApiException.conflict(
                                "AssetExists",
                                "you have a " + req.kind() + " named '"
                                        + c.fields().name() + "' already");
                    }
                    return accountOf(c.fields(), caller.userId());
                })
                .call(x -> starts.requireRoom(caller.userId()))
                .flatMap(accountId -> starts.start(
                                new DownloadStarts.Run(
                                        c.hub(),
                                        req.kind(),
                                        req.repository(),
                                        p.resolved().sha(),
                                        c.revision(),
                                        HubDownloads.canonical(req.include()),
                                        HubDownloads.canonical(req.exclude()),
                                        endpoint,
                                        req.credential(),
                                        c.fields().name(),
                                        p.target()),
                                jobAccount,
                                caller)
                        .flatMap(job -> store(c, p, files, endpoint, jobAccount, accountId, warnings, job, caller)));
    }

    private Uni<DownloadQueries.DownloadRow> store(
            Checked c,
            Prepared p,
            List<HubDownloads.HubFile> files,
            String endpoint,
            String jobAccount,
            Long accountId,
            List<String> warnings,
            String job,
            Caller caller) {
        DownloadViews.CreateDownload req = c.req();
        String publicId = DownloadIds.next();
        DownloadQueries.DownloadRow row = new DownloadQueries.DownloadRow(
                0,
                publicId,
                caller.userId(),
                req.kind(),
                c.hub(),
                endpoint,
                req.repository(),
                c.revision(),
                p.resolved().sha(),
                HubDownloads.canonical(req.include()),
                HubDownloads.canonical(req.exclude()),
                key(c, p.resolved().sha()),
                req.credential(),
                c.fields().name(),
                p.target().space(),
                p.target().path(),
                jobAccount,
                c.fields().visibility(),
                accountId,
                files,
                files.stream().mapToLong(HubDownloads.HubFile::size).sum(),
                "running",
                "",
                "",
                warnings,
                job,
                null,
                null,
                null,
                null);
        return queries.insert(row)
                .call(id -> queries.run(id, caller.userId(), job))
                .call(id -> audit.record(
                        caller.actor(jobAccount),
                        "download.create",
                        req.kind(),
                        publicId,
                        null,
                        Map.of(
                                "repository",
                                req.repository(),
                                "sha",
                                p.resolved().sha(),
                                "space",
                                row.space(),
                                "path",
                                row.path(),
                                "job",
                                job)))
                .flatMap(id -> queries.byPublicId(publicId))
                .map(Optional::orElseThrow);
    }

    static String key(Checked c, String sha) {
        DownloadViews.CreateDownload req = c.req();
        return HubDownloads.key(c.hub(), req.kind(), req.repository(), sha, req.include(), req.exclude());
    }

    /** The caller's credential of the hub's kind opened (marked used); 400 {@code UnknownCredential} otherwise. */
    private Uni<Optional<String>> token(Caller caller, String name, String kind) {
        if (name == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return credentials
                .get(name, caller)
                .onFailure(ApiException.class)
                .transform(e -> unknownCredential(name, kind))
                .flatMap(cred -> {
                    if (!kind.equals(cred.kind())) {
                        throw unknownCredential(name, kind);
                    }
                    return credentials.reveal(caller.userId(), List.of(name));
                })
                .map(values -> Optional.ofNullable(values.get(name)));
    }

    private static ApiException unknownCredential(String name, String kind) {
        String why = "you have no credential named '" + name + "' of kind " + kind;
        return ApiException.badRequest("UnknownCredential", why, List.of(new Problem.FieldError("credential", why)));
    }

    /** The account the entry is shared with: its owner must be a member. */
    private Uni<Long> accountOf(DownloadedEntries.Fields f, long ownerId) {
        if (f.account() == null) {
            return Uni.createFrom().nullItem();
        }
        return accounts.memberAccountId(f.account(), ownerId)
                .map(id -> id.orElseThrow(() -> DownloadChecks.invalid(List.of(
                        new Problem.FieldError("account", "you are not a member of account '" + f.account() + "'")))));
    }

    public Uni<DownloadViews.Download> get(String id, Caller caller) {
        return Panache.withSession(() -> visible(id, caller).flatMap(row -> lookups(List.of(row))))
                .flatMap(l -> render(l, caller))
                .map(v -> v.get(0));
    }

    public Uni<DownloadViews.DownloadPage> list(Caller caller, boolean mine, Integer limit) {
        int n = limit == null ? 50 : Math.max(1, Math.min(200, limit));
        return Panache.withSession(() ->
                        viewer(caller).flatMap(v -> queries.list(v, mine, n)).flatMap(this::lookups))
                .flatMap(l -> render(l, caller))
                .map(DownloadViews.DownloadPage::new);
    }

    Uni<DownloadQueries.Viewer> viewer(Caller caller) {
        if (caller.platformAdmin()) {
            return Uni.createFrom().item(new DownloadQueries.Viewer(caller.userId(), true, List.of()));
        }
        return accounts.accountIdsOf(caller.userId())
                .map(ids -> new DownloadQueries.Viewer(caller.userId(), false, ids));
    }

    /** The download if the caller sees it; 404 otherwise, as for an id nobody has. In a session. */
    Uni<DownloadQueries.DownloadRow> visible(String id, Caller caller) {
        if (id == null || !DownloadIds.PATTERN.matcher(id).matches()) {
            return Uni.createFrom().failure(ApiException.notFound("no download '" + id + "'"));
        }
        return viewer(caller)
                .flatMap(v -> queries.byPublicId(id)
                        .map(r -> r.filter(d -> v.platformAdmin()
                                        || d.ownerId() == v.userId()
                                        || d.visibility().equals("public")
                                        || d.visibility().equals("account")
                                                && v.accountIds().contains(d.accountId()))
                                .orElseThrow(() -> ApiException.notFound("no download '" + id + "'"))));
    }

    /** Rows with their owners' usernames and the slugs of the accounts they are shared with. */
    record Lookups(List<DownloadQueries.DownloadRow> rows, Map<Long, String> names, Map<Long, String> slugs) {}

    /** The names a view shows. In a session. */
    Uni<Lookups> lookups(List<DownloadQueries.DownloadRow> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(new Lookups(rows, Map.of(), Map.of()));
        }
        List<Long> owners = rows.stream()
                .map(DownloadQueries.DownloadRow::ownerId)
                .distinct()
                .toList();
        List<Long> shared = rows.stream()
                .map(DownloadQueries.DownloadRow::accountId)
                .filter(Objects::nonNull)
                .distinct()
                .toList();
        return users.usernames(owners)
                .flatMap(names -> (shared.isEmpty()
                                ? Uni.createFrom().item(Map.<Long, String>of())
                                : accounts.slugs(shared))
                        .map(slugs -> new Lookups(rows, names, slugs)));
    }

    /** The views, with progress measured in the target folders now (on a worker thread, outside any session). */
    Uni<List<DownloadViews.Download>> render(Lookups l, Caller caller) {
        return blocking(() -> l.rows().stream()
                .map(r -> DownloadViewing.view(r, progress(r), l.names(), l.slugs(), caller))
                .toList());
    }

    /** Progress now: complete once succeeded, else measured in the target folder. Blocking. */
    HubDownloads.Progress progress(DownloadQueries.DownloadRow r) {
        if (r.state().equals("succeeded")) {
            long total = r.bytesTotal();
            return new HubDownloads.Progress(
                    total, total, r.files().size(), r.files().size());
        }
        return HubDownloads.progress(
                r.files(), DownloadFiles.present(targets.hostPath(r.space(), r.path()), r.files()));
    }

    static <T> Uni<T> blocking(Supplier<T> work) {
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}

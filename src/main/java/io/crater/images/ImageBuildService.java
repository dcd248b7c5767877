package io.crater.images;

import io.crater.account.AccountService;
import io.crater.credential.CredentialService;
import io.crater.credential.CredentialViews;
import io.crater.identity.Caller;
import io.crater.identity.UserDirectory;
import io.crater.job.BuildFiles;
import io.crater.job.JobEnds;
import io.crater.job.JobService;
import io.crater.job.JobStops;
import io.crater.job.JobViews;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.crater.policy.ImageBuilds;
import io.crater.policy.ImageReferences;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Image builds (docs/assets.md, "Builds"): a build from a base and packages or from a Dockerfile runs as a job of kind
 * {@code imagebuild} in the caller's account, pushing to the configured build registry or to one the caller has a
 * registry credential for. Only its owner (and platform admins) see a build; anyone else gets 404. It also tells the
 * job feature what a build job needs ({@link BuildFiles}).
 */
@ApplicationScoped
public class ImageBuildService implements BuildFiles {

    @Inject
    ImageBuildQueries queries;

    @Inject
    ImagesConfig config;

    @Inject
    JobService jobs;

    @Inject
    JobStops stops;

    @Inject
    JobEnds ends;

    @Inject
    CredentialService credentials;

    @Inject
    AccountService accounts;

    @Inject
    UserDirectory users;

    @Inject
    AuditTrail audit;

    /** A build request checked: its source, Dockerfile, destination and what the catalogue entry will say. */
    record Checked(
            String source,
            String dockerfile,
            ImageBuilds.Destination destination,
            String credential,
            String cudaVersion,
            List<String> kinds,
            List<String> vendors) {}

    @Override
    public Uni<Optional<BuildFiles.Build>> of(String jobPublicId) {
        return queries.byJob(jobPublicId)
                .map(r -> r.map(b -> new BuildFiles.Build(
                        b.builder(),
                        b.dockerfile(),
                        b.destination(),
                        b.registryHost(),
                        b.plainHttp(),
                        b.credential())));
    }

    /** Starts a build: checks it, then submits its job and stores it in one transaction. */
    public Uni<ImageBuildViews.Build> create(ImageBuildViews.CreateBuild req, String accountHeader, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        Checked c = check(req);
        return Panache.withTransaction(() -> allowed(c, caller)
                .flatMap(x -> jobs.submitOwn(jobSpec(req, c), accountHeader, caller))
                .flatMap(job -> accounts.memberAccountId(job.account(), caller.userId())
                        .flatMap(account -> {
                            ImageBuildQueries.BuildRow row = row(req, c, caller.userId(), account.orElseThrow(), job);
                            return queries.insert(row)
                                    .call(id -> audit.record(
                                            caller.actor(job.account()),
                                            "image.build",
                                            "image-build",
                                            row.publicId(),
                                            null,
                                            Map.of(
                                                    "destination", row.destination(),
                                                    "source", row.source(),
                                                    "job", job.id())))
                                    .flatMap(id -> queries.byPublicId(row.publicId()));
                        }))
                .flatMap(r -> view(r.orElseThrow(), caller)));
    }

    /** The checks of a request that need nothing stored: 400 {@code InvalidImageBuild} with every field at fault. */
    private Checked check(ImageBuildViews.CreateBuild req) {
        List<ImageBuilds.Refusal> refused = new ArrayList<>();
        boolean fromDockerfile = req.dockerfile() != null;
        if (fromDockerfile && (req.base() != null || nonEmpty(req.pip()) || nonEmpty(req.apt()))) {
            refused.add(new ImageBuilds.Refusal("dockerfile", "give either a Dockerfile or a base with packages"));
        }
        refused.addAll(
                fromDockerfile
                        ? ImageBuilds.checkDockerfile(req.dockerfile())
                        : ImageBuilds.checkPackages(req.base(), req.pip(), req.apt()));
        ImageBuilds.Destination destination = ImageBuilds.destination(req.destination(), refused);
        String credential = req.credential() == null || req.credential().isBlank()
                ? null
                : req.credential().trim();
        if (credential != null && !credential.matches("^[a-z0-9-]{1,40}$")) {
            refused.add(
                    new ImageBuilds.Refusal("credential", "a credential name: 1 to 40 lowercase letters, digits or -"));
        }
        if (req.description() != null && req.description().length() > 2000) {
            refused.add(new ImageBuilds.Refusal("description", "at most 2000 characters"));
        }
        List<ImageReferences.Refusal> more = new ArrayList<>();
        String cuda = ImageReferences.cuda(req.cudaVersion(), more);
        List<String> kinds = ImageReferences.oneOf(req.kinds(), ImageReferences.KINDS, "kinds", more);
        List<String> vendors = ImageReferences.vendors(req.vendors(), more);
        more.forEach(r -> refused.add(new ImageBuilds.Refusal(r.field(), r.message())));
        if (!refused.isEmpty()) {
            throw invalid(refused.stream()
                    .map(r -> new Problem.FieldError(r.field(), r.message()))
                    .toList());
        }
        String dockerfile = fromDockerfile
                ? req.dockerfile()
                : ImageBuilds.dockerfile(req.base().trim(), list(req.pip()), list(req.apt()));
        return new Checked(
                fromDockerfile ? "dockerfile" : "packages", dockerfile, destination, credential, cuda, kinds, vendors);
    }

    /**
     * The destination's registry must be the build registry, or one the named credential (of kind registry, the
     * caller's own) logs in to.
     */
    private Uni<Void> allowed(Checked c, Caller caller) {
        String registry = c.destination().reference().registry();
        boolean buildRegistry = config.buildRegistry().map(registry::equals).orElse(false);
        if (c.credential() == null) {
            if (buildRegistry) {
                return Uni.createFrom().voidItem();
            }
            throw invalid(List.of(new Problem.FieldError(
                    "destination",
                    config.buildRegistry()
                            .map(r -> "push to " + r + ", or name a registry credential of yours for " + registry)
                            .orElse("name a registry credential of yours for " + registry))));
        }
        return credentials.find(caller.userId(), c.credential()).map(found -> {
            CredentialViews.Credential cred = found.orElseThrow(() -> invalid(List.of(
                    new Problem.FieldError("credential", "you have no credential named '" + c.credential() + "'"))));
            if (!"registry".equals(cred.kind())) {
                throw invalid(List.of(new Problem.FieldError(
                        "credential",
                        "'" + c.credential() + "' is a " + cred.kind() + " credential, not a registry one")));
            }
            if (!buildRegistry && !hosts(registry).contains(cred.host())) {
                throw invalid(List.of(new Problem.FieldError(
                        "destination",
                        "credential '" + c.credential() + "' logs in to " + cred.host() + ", not to " + registry)));
            }
            return null;
        });
    }

    private static Set<String> hosts(String registry) {
        return ImageReferences.DOCKER_HUB.equals(registry)
                ? Set.of("docker.io", "index.docker.io", "registry-1.docker.io")
                : Set.of(registry);
    }

    /** The job that runs the build: the builder's image with the build's CPU and memory, no accelerator. */
    private JobViews.SubmitJob jobSpec(ImageBuildViews.CreateBuild req, Checked c) {
        String name = "build " + c.destination().text();
        boolean kaniko = "kaniko".equals(builder());
        return new JobViews.SubmitJob(
                name.length() > 100 ? name.substring(0, 100) : name,
                "imagebuild",
                kaniko ? config.kanikoImage() : config.buildkitImage(),
                null,
                null,
                null,
                null,
                new JobViews.PodResources(
                        req.cpu() == null ? config.buildCpu() : req.cpu(),
                        req.memory() == null ? config.buildMemory() : req.memory(),
                        null,
                        null,
                        null),
                null,
                config.buildTimeLimit(),
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private String builder() {
        return "kaniko".equalsIgnoreCase(config.builder().trim()) ? "kaniko" : "buildkit";
    }

    private ImageBuildQueries.BuildRow row(
            ImageBuildViews.CreateBuild req, Checked c, long ownerId, long accountId, JobViews.JobSummary job) {
        ImageReferences.Reference ref = c.destination().reference();
        boolean plain =
                ref.loopback() || config.plainHttpRegistries().orElse(List.of()).contains(ref.registry());
        return new ImageBuildQueries.BuildRow(
                0,
                ImageBuildIds.next(),
                ownerId,
                accountId,
                job.id(),
                c.source(),
                "packages".equals(c.source()) ? req.base().trim() : null,
                ImageChecks.stored(list(req.pip())),
                ImageChecks.stored(list(req.apt())),
                c.dockerfile(),
                c.destination().text(),
                ref.registry(),
                plain,
                c.credential(),
                builder(),
                req.description() == null ? "" : req.description().trim(),
                c.cudaVersion(),
                ImageChecks.stored(c.kinds()),
                ImageChecks.stored(c.vendors()),
                "building",
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** A page of the caller's builds (every build for a platform admin with {@code all}), newest first. */
    public Uni<ImageBuildViews.BuildPage> list(Caller caller, boolean all, String cursor, Integer limit) {
        long before = Page.afterId(cursor);
        int n = Page.limit(limit);
        Long owner = all && caller.platformAdmin() ? null : caller.userId();
        return Panache.withSession(() -> queries.list(owner, before, n).flatMap(rows -> {
            List<ImageBuildQueries.BuildRow> page = rows.size() > n ? rows.subList(0, n) : rows;
            return views(page)
                    .map(items -> new ImageBuildViews.BuildPage(
                            items,
                            rows.size() > n ? Long.toString(rows.get(n - 1).id()) : null));
        }));
    }

    public Uni<ImageBuildViews.Build> get(String id, Caller caller) {
        return Panache.withSession(() -> visible(id, caller).flatMap(r -> view(r, caller)));
    }

    /** Stops the build's job (its owner or a platform admin); the build ends as stopped once the job has. */
    public Uni<ImageBuildViews.Build> stop(String id, Caller caller) {
        return Panache.withSession(() -> visible(id, caller))
                .flatMap(r -> stops.stop(r.jobPublicId(), caller).replaceWith(r))
                .flatMap(r -> get(r.publicId(), caller));
    }

    private Uni<ImageBuildQueries.BuildRow> visible(String id, Caller caller) {
        return queries.byPublicId(id == null ? "" : id)
                .map(r -> r.filter(b -> b.ownerId() == caller.userId() || caller.platformAdmin())
                        .orElseThrow(() -> ApiException.notFound("no image build " + id)));
    }

    private Uni<ImageBuildViews.Build> view(ImageBuildQueries.BuildRow row, Caller caller) {
        return views(List.of(row)).map(v -> v.get(0));
    }

    private Uni<List<ImageBuildViews.Build>> views(List<ImageBuildQueries.BuildRow> rows) {
        List<Long> owners = rows.stream()
                .map(ImageBuildQueries.BuildRow::ownerId)
                .distinct()
                .toList();
        List<Long> accountIds = rows.stream()
                .map(ImageBuildQueries.BuildRow::accountId)
                .distinct()
                .toList();
        return users.usernames(owners)
                .flatMap(names -> accounts.slugs(accountIds)
                        .flatMap(slugs -> ends.of(rows.stream()
                                        .map(ImageBuildQueries.BuildRow::jobPublicId)
                                        .toList())
                                .map(jobStates -> rows.stream()
                                        .map(r -> r.view(
                                                names.get(r.ownerId()),
                                                slugs.get(r.accountId()),
                                                jobStates.get(r.jobPublicId())))
                                        .toList())));
    }

    private static boolean nonEmpty(List<String> l) {
        return l != null && !l.isEmpty();
    }

    private static List<String> list(List<String> l) {
        return l == null ? List.of() : l.stream().map(String::trim).toList();
    }

    static ApiException invalid(List<Problem.FieldError> errors) {
        return ApiException.badRequest("InvalidImageBuild", "the image build cannot be started as given", errors);
    }
}

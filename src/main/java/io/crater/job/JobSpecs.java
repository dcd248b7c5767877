package io.crater.job;

import io.crater.cluster.AcceleratorModel;
import io.crater.job.JobViews.SubmitJob;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.Amounts;
import io.crater.policy.EffectiveRequest;
import io.crater.policy.PodDemand;
import io.crater.policy.Resources;
import io.crater.policy.Taints;
import io.crater.policy.TargetNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Checks a submitted job and derives what it asks of the quota and of the nodes. */
final class JobSpecs {

    private static final Pattern ENV_NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,127}$");
    private static final Pattern CREDENTIAL_NAME = Pattern.compile("^[a-z0-9-]{1,40}$");
    private static final Pattern DURATION = Pattern.compile("^([0-9]{1,6})(s|m|h|d)$");
    static final int MAX_NAME = 100;
    static final long MAX_CPU_MILLI = 1024_000;
    static final long MAX_MEMORY_BYTES = 16L << 40;
    static final int MAX_ACCELERATORS = 64;
    static final int MAX_WORKERS = 255;

    /** A checked job: its manifest inputs (id filled in later), quota requests and pod demands. */
    record Checked(JobInputs.Spec spec, Resources quotaRequest, List<PodDemand> pods, int priority, boolean backfill) {

        /**
         * The same job as a job of {@code accountId}: its pods tolerate that account's exclusive nodes, as its
         * manifests do ({@link PodTemplates}).
         */
        Checked forAccount(long accountId) {
            Taints.Toleration own = Taints.exclusiveTo(accountId);
            return new Checked(
                    spec,
                    quotaRequest,
                    pods.stream().map(p -> p.tolerating(own)).toList(),
                    priority,
                    backfill);
        }
    }

    private JobSpecs() {}

    /** Default and longest time limits of interactive and batch jobs. */
    record TimeLimits(Duration interactiveDefault, Duration interactiveMax, Duration batchDefault, Duration batchMax) {

        static TimeLimits of(JobsConfig config) {
            return new TimeLimits(
                    config.interactiveDefaultLimit(),
                    config.interactiveMaxLimit(),
                    config.batchDefaultLimit(),
                    config.batchMaxLimit());
        }

        /** An account's own settings (null: the platform's) within the platform's maxima. */
        TimeLimits narrowedBy(Duration iDefault, Duration iMax, Duration bDefault, Duration bMax) {
            Duration im = min(interactiveMax, iMax);
            Duration bm = min(batchMax, bMax);
            return new TimeLimits(
                    min(im, iDefault == null ? interactiveDefault : iDefault),
                    im,
                    min(bm, bDefault == null ? batchDefault : bDefault),
                    bm);
        }

        private static Duration min(Duration a, Duration b) {
            return b == null || a.compareTo(b) <= 0 ? a : b;
        }
    }

    static Checked check(SubmitJob req, List<AcceleratorModel> catalogue, JobsConfig config) {
        return check(req, catalogue, config, TimeLimits.of(config));
    }

    /** The nodes the job names, checked; its faults added to {@code errors}. */
    private static TargetNodes targets(JobViews.NodeTargets nodes, List<Problem.FieldError> errors) {
        List<String> use = nodes == null ? null : nodes.use();
        List<String> avoid = nodes == null ? null : nodes.avoid();
        List<TargetNodes.Violation> faults = TargetNodes.check(use, avoid);
        faults.forEach(v -> errors.add(new Problem.FieldError(v.field(), v.message())));
        return faults.isEmpty() ? TargetNodes.of(use, avoid) : TargetNodes.ANY;
    }

    /**
     * Refuses an allow list naming a node the cluster does not have (a typo would otherwise wait forever); a deny
     * list may name any node. Nothing is refused while no node is known.
     */
    static void requireKnownNodes(TargetNodes target, java.util.Collection<String> nodes) {
        if (nodes.isEmpty()) {
            return; // the cluster's nodes are not known yet (before the first sync): placement will tell
        }
        List<String> unknown =
                target.allow().stream().filter(n -> !nodes.contains(n)).sorted().toList();
        if (!unknown.isEmpty()) {
            throw ApiException.badRequest(
                    "InvalidJob",
                    "the job cannot be submitted as given",
                    List.of(new Problem.FieldError("nodes.use", "no node named " + String.join(", ", unknown))));
        }
    }

    /** Download jobs are started by the downloads API only (docs/assets.md): 400 {@code InvalidJob} for one submitted. */
    static void refuseDownload(String kind) {
        if (JobKind.DOWNLOAD.id().equals(kind)) {
            throw ApiException.badRequest(
                    "InvalidJob",
                    "download jobs are started through the downloads API",
                    List.of(new Problem.FieldError("kind", "started through /api/v1/assets/downloads")));
        }
    }

    /** Formats a time limit as the API writes it: the largest whole unit ({@code 90m}, {@code 2d}). */
    static String format(Duration d) {
        long s = d.toSeconds();
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    static Checked check(SubmitJob req, List<AcceleratorModel> catalogue, JobsConfig config, TimeLimits limits) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req == null) {
            throw ApiException.badRequest(
                    "InvalidJob", "a job body is required", List.of(new Problem.FieldError("body", "required")));
        }
        JobKind kind = JobKind.of(req.kind()).orElse(null);
        if (kind == null) {
            errors.add(new Problem.FieldError("kind", "one of jupyter, webide, custom, pytorch, inference"));
        }
        Process process = process(req, kind, config, errors);
        Sizes sizes = sizes(req.resources(), catalogue, errors);
        int workers = req.workers() == null ? 0 : req.workers();
        if (workers < 0 || workers > MAX_WORKERS || (workers > 0 && kind != JobKind.PYTORCH)) {
            errors.add(new Problem.FieldError(
                    "workers", kind == JobKind.PYTORCH ? "0 to " + MAX_WORKERS : "only pytorch jobs have workers"));
        }
        Duration limit = timeLimit(req.timeLimit(), kind, limits, errors);
        if (Boolean.TRUE.equals(req.backfill()) && kind != JobKind.CUSTOM && kind != JobKind.PYTORCH) {
            errors.add(new Problem.FieldError("backfill", "only custom and pytorch jobs run as backfill"));
        }
        int priority = priority(req.priority(), errors);
        io.crater.policy.DataMounts.check(JobMounts.wanted(req.mounts()))
                .forEach(r -> errors.add(new Problem.FieldError(r.field(), r.message())));
        TargetNodes targets = targets(req.nodes(), errors);
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidJob", "the job cannot be submitted as given", errors);
        }
        AcceleratorModel model = sizes.model();
        JobInputs.Accelerator accelerator = model == null
                ? null
                : new JobInputs.Accelerator(
                        model.key(),
                        model.resource(),
                        model.labelKey(),
                        model.labelValue(),
                        model.memoryResource(),
                        model.memoryMiB());
        JobInputs.Spec spec = new JobInputs.Spec(
                "jpending0",
                process.name(),
                kind,
                process.image(),
                process.command(),
                process.args(),
                process.workingDir(),
                process.env(),
                sizes.cpu(),
                sizes.memoryMilli() / 1000,
                accelerator,
                sizes.count(),
                sizes.shmMilli() / 1000,
                workers,
                limit,
                process.credentialEnv(),
                List.of(),
                targets);
        return demand(spec, sizes, priority, Boolean.TRUE.equals(req.backfill()));
    }

    /** What runs: name, image, command, arguments, working directory and environment. */
    private record Process(
            String name,
            String image,
            List<String> command,
            List<String> args,
            String workingDir,
            Map<String, String> env,
            Map<String, String> credentialEnv) {}

    private static Process process(SubmitJob req, JobKind kind, JobsConfig config, List<Problem.FieldError> errors) {
        String name = req.name() == null ? "" : req.name().trim();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            errors.add(new Problem.FieldError(
                    "name",
                    name.isEmpty()
                            ? "required"
                            : "at most " + MAX_NAME + " characters (this one has " + name.length() + ")"));
        }
        String image = req.image() == null || req.image().isBlank()
                ? defaultImage(kind, config)
                : req.image().trim();
        if (image == null || image.length() > 500 || image.chars().anyMatch(Character::isWhitespace)) {
            errors.add(new Problem.FieldError(
                    "image",
                    "an image reference without spaces"
                            + (kind == JobKind.CUSTOM || kind == JobKind.PYTORCH || kind == JobKind.INFERENCE
                                    ? " (required for this kind)"
                                    : "")));
        }
        List<String> command = req.command() == null ? List.of() : req.command();
        List<String> args = req.args() == null ? List.of() : req.args();
        if ((kind == JobKind.CUSTOM || kind == JobKind.PYTORCH || kind == JobKind.DOWNLOAD) && command.isEmpty()) {
            errors.add(new Problem.FieldError("command", "required for this kind"));
        }
        if (command.size() + args.size() > 256
                || command.stream().anyMatch(c -> c == null || c.length() > 4096)
                || args.stream().anyMatch(a -> a == null || a.length() > 4096)) {
            errors.add(new Problem.FieldError("args", "at most 256 entries of at most 4096 characters"));
        }
        String workingDir = req.workingDir() == null || req.workingDir().isBlank()
                ? null
                : req.workingDir().trim();
        if (workingDir != null && (!workingDir.startsWith("/") || workingDir.length() > 1024)) {
            errors.add(new Problem.FieldError("workingDir", "an absolute path"));
        }
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, String> credentialEnv = new LinkedHashMap<>();
        (req.env() == null ? Map.<String, EnvValue>of() : req.env()).forEach((k, v) -> {
            String problem = envProblem(k, v);
            if (problem != null) {
                errors.add(new Problem.FieldError("env." + k, problem));
            } else if (v.credential() != null) {
                credentialEnv.put(k, v.credential());
            } else {
                env.put(k, v.value());
            }
        });
        return new Process(name, image, command, args, workingDir, env, credentialEnv);
    }

    /** What is wrong with one environment entry, or null. */
    private static String envProblem(String name, EnvValue v) {
        if (name == null || !ENV_NAME.matcher(name).matches()) {
            return "not a variable name";
        }
        if (PodTemplates.reserved(name)) {
            return "set by Crater";
        }
        if (v == null || v.invalid()) {
            return "a string, or {\"credential\": name} to take the value from one of your credentials";
        }
        if (v.credential() != null) {
            return CREDENTIAL_NAME.matcher(v.credential()).matches()
                    ? null
                    : "a credential name: 1 to 40 lowercase letters, digits or -";
        }
        return v.value().length() > 32_768 ? "a value of at most 32768 characters" : null;
    }

    /** What each pod asks for, in milli-units, and the accelerator model (null: none). */
    private record Sizes(long cpu, long memoryMilli, long shmMilli, int count, AcceleratorModel model) {}

    private static Sizes sizes(
            JobViews.PodResources given, List<AcceleratorModel> catalogue, List<Problem.FieldError> errors) {
        JobViews.PodResources res = given == null ? new JobViews.PodResources(null, null, null, null, null) : given;
        long cpu = quantity(Amounts.Kind.CPU, res.cpu(), "1", "resources.cpu", 1, MAX_CPU_MILLI, errors);
        long memoryMilli = quantity(
                Amounts.Kind.MEMORY,
                res.memory(),
                "4Gi",
                "resources.memory",
                1000L << 20,
                MAX_MEMORY_BYTES * 1000,
                errors);
        long shmMilli = res.sharedMemory() == null
                ? 0
                : quantity(
                        Amounts.Kind.MEMORY,
                        res.sharedMemory(),
                        "0",
                        "resources.sharedMemory",
                        0,
                        MAX_MEMORY_BYTES * 1000,
                        errors);
        int count = res.accelerators() == null ? 0 : res.accelerators();
        if (count < 0 || count > MAX_ACCELERATORS) {
            errors.add(new Problem.FieldError(
                    "resources.accelerators",
                    count < 0 ? "must not be negative" : "too large: at most " + MAX_ACCELERATORS + " per pod"));
        }
        AcceleratorModel model = null;
        if (res.acceleratorModel() != null && !res.acceleratorModel().isBlank()) {
            model = catalogue.stream()
                    .filter(m -> m.key().equals(res.acceleratorModel()))
                    .findFirst()
                    .orElse(null);
            if (model == null) {
                errors.add(new Problem.FieldError("resources.acceleratorModel", "unknown accelerator model"));
            }
        } else if (count > 0) {
            errors.add(new Problem.FieldError("resources.acceleratorModel", "name the model of the accelerators"));
        }
        return new Sizes(cpu, memoryMilli, shmMilli, count, model);
    }

    private static int priority(String given, List<Problem.FieldError> errors) {
        return switch (given == null ? "normal" : given) {
            case "low" -> 0;
            case "normal" -> 1;
            case "high" -> 2;
            default -> {
                errors.add(new Problem.FieldError("priority", "low, normal or high"));
                yield 1;
            }
        };
    }

    /** The job's quota demand (every pod's requests summed) and its pods as placement sees them. */
    private static Checked demand(JobInputs.Spec spec, Sizes sizes, int priority, boolean backfill) {
        JobInputs.Accelerator accelerator = spec.accelerator();
        int count = sizes.count();
        int podCount = spec.workers() + 1;
        Map<String, Long> quota = new TreeMap<>();
        quota.put("cpu", sizes.cpu() * podCount);
        quota.put("memory", sizes.memoryMilli() * podCount);
        Map<String, Long> perPod = new LinkedHashMap<>();
        perPod.put("cpu", sizes.cpu());
        perPod.put("memory", sizes.memoryMilli());
        if (accelerator != null && count > 0) {
            quota.put(accelerator.model(), count * 1000L * podCount);
            perPod.put(accelerator.resource(), count * 1000L);
        }
        Resources podRequest = EffectiveRequest.of(List.of(new Resources(perPod)), List.of(), Resources.NONE);
        Map<String, String> selector = accelerator == null || count == 0 ? Map.of() : accelerator.nodeSelector();
        List<PodDemand> pods = new ArrayList<>();
        for (int i = 0; i < podCount; i++) {
            pods.add(new PodDemand("pod-" + i, podRequest, selector, List.of(), spec.targetNodes()));
        }
        return new Checked(spec, new Resources(quota), pods, priority, backfill);
    }

    private static String defaultImage(JobKind kind, JobsConfig config) {
        if (kind == JobKind.JUPYTER) {
            return config.jupyterImage();
        }
        return kind == JobKind.WEBIDE ? config.webideImage() : null;
    }

    private static long quantity(
            Amounts.Kind kind,
            String value,
            String fallback,
            String field,
            long min,
            long max,
            List<Problem.FieldError> errors) {
        Amounts.Checked c = Amounts.check(kind, value == null || value.isBlank() ? fallback : value, min, max);
        if (!c.ok()) {
            errors.add(new Problem.FieldError(field, c.problem()));
        }
        return c.milli();
    }

    private static Duration timeLimit(String value, JobKind kind, TimeLimits config, List<Problem.FieldError> errors) {
        if (kind == null) {
            return null;
        }
        boolean interactive = kind.interactive();
        Duration max = interactive ? config.interactiveMax() : config.batchMax();
        if (value == null || value.isBlank()) {
            return kind == JobKind.INFERENCE ? null : interactive ? config.interactiveDefault() : config.batchDefault();
        }
        var m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            errors.add(new Problem.FieldError("timeLimit", "a duration such as 90m, 12h or 3d"));
            return null;
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (d.isZero() || d.compareTo(max) > 0) {
            errors.add(new Problem.FieldError("timeLimit", "between 1s and " + format(max) + " for this kind here"));
        }
        return d;
    }

    /** An image build is started by the image catalogue only (docs/assets.md), never submitted as a job. */
    static void requireBuild(JobKind kind, boolean build) {
        if (kind == JobKind.IMAGEBUILD && !build) {
            throw ApiException.badRequest(
                    "InvalidJob",
                    "the job cannot be submitted as given",
                    List.of(new Problem.FieldError(
                            "kind",
                            build ? "an image build's job" : "image builds start through /api/v1/images/builds")));
        }
    }
}

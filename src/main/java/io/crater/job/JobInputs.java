package io.crater.job;

import io.crater.policy.TargetNodes;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The checked inputs of {@link JobManifests}: what the job asks for, whose it is, where it runs. */
public final class JobInputs {

    private JobInputs() {}

    /**
     * An accelerator model as the catalogue maps it onto nodes: the resource pods request, the node label that selects
     * the model (null when the resource alone names it) and, for a shared-GPU model (HAMi), the resource each pod asks
     * {@code memoryMiB} of per device.
     */
    public record Accelerator(
            String model, String resource, String labelKey, String labelValue, String memoryResource, Long memoryMiB) {

        /** A whole-device model. */
        public Accelerator(String model, String resource, String labelKey, String labelValue) {
            this(model, resource, labelKey, labelValue, null, null);
        }

        /** The node selector of its pods: the model's label, or none. */
        public Map<String, String> nodeSelector() {
            return labelKey == null ? Map.of() : Map.of(labelKey, labelValue);
        }
    }

    /** A dataset or model mounted read-only at {@code path}, from {@code claimPath} on the shared claim. */
    public record DataMount(String path, String claimPath) {}

    /**
     * What the job asks for, per pod. {@code workers} is the number of pods beside the master for {@code pytorch}
     * (0 for every other kind); {@code timeLimit} null means no limit (inference runs until stopped).
     * {@code credentialEnv} maps variables to the names of the owner's credentials they take their values from;
     * {@code dataMounts} are the datasets and models it mounts, read when it is applied; {@code targetNodes} the nodes
     * it asks to use or to avoid by name ({@link TargetNodes#ANY}: none named).
     */
    public record Spec(
            String publicId,
            String displayName,
            JobKind kind,
            String image,
            List<String> command,
            List<String> args,
            String workingDir,
            Map<String, String> env,
            long cpuMilli,
            long memoryBytes,
            Accelerator accelerator,
            int acceleratorsPerPod,
            long sharedMemoryBytes,
            int workers,
            Duration timeLimit,
            Map<String, String> credentialEnv,
            List<DataMount> dataMounts,
            TargetNodes targetNodes) {

        public Spec {
            targetNodes = targetNodes == null ? TargetNodes.ANY : targetNodes;
            command = command == null ? List.of() : List.copyOf(command);
            args = args == null ? List.of() : List.copyOf(args);
            env = env == null ? Map.of() : Map.copyOf(env);
            credentialEnv = credentialEnv == null ? Map.of() : Map.copyOf(credentialEnv);
            dataMounts = dataMounts == null ? List.of() : List.copyOf(dataMounts);
        }

        /** A job that mounts no dataset or model. */
        public Spec(
                String publicId,
                String displayName,
                JobKind kind,
                String image,
                List<String> command,
                List<String> args,
                String workingDir,
                Map<String, String> env,
                long cpuMilli,
                long memoryBytes,
                Accelerator accelerator,
                int acceleratorsPerPod,
                long sharedMemoryBytes,
                int workers,
                Duration timeLimit,
                Map<String, String> credentialEnv) {
            this(
                    publicId,
                    displayName,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    cpuMilli,
                    memoryBytes,
                    accelerator,
                    acceleratorsPerPod,
                    sharedMemoryBytes,
                    workers,
                    timeLimit,
                    credentialEnv,
                    List.of(),
                    TargetNodes.ANY);
        }

        /** A job whose environment holds plain values only. */
        public Spec(
                String publicId,
                String displayName,
                JobKind kind,
                String image,
                List<String> command,
                List<String> args,
                String workingDir,
                Map<String, String> env,
                long cpuMilli,
                long memoryBytes,
                Accelerator accelerator,
                int acceleratorsPerPod,
                long sharedMemoryBytes,
                int workers,
                Duration timeLimit) {
            this(
                    publicId,
                    displayName,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    cpuMilli,
                    memoryBytes,
                    accelerator,
                    acceleratorsPerPod,
                    sharedMemoryBytes,
                    workers,
                    timeLimit,
                    Map.of());
        }

        /** The same job under the given public id. */
        public Spec withPublicId(String id) {
            return new Spec(
                    id,
                    displayName,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    cpuMilli,
                    memoryBytes,
                    accelerator,
                    acceleratorsPerPod,
                    sharedMemoryBytes,
                    workers,
                    timeLimit,
                    credentialEnv,
                    dataMounts,
                    targetNodes);
        }

        /** The same job with these datasets and models mounted. */
        public Spec withDataMounts(List<DataMount> mounts) {
            return new Spec(
                    publicId,
                    displayName,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    cpuMilli,
                    memoryBytes,
                    accelerator,
                    acceleratorsPerPod,
                    sharedMemoryBytes,
                    workers,
                    timeLimit,
                    credentialEnv,
                    mounts,
                    targetNodes);
        }

        /** The same job asking for these nodes. */
        public Spec withTargetNodes(TargetNodes nodes) {
            return new Spec(
                    publicId,
                    displayName,
                    kind,
                    image,
                    command,
                    args,
                    workingDir,
                    env,
                    cpuMilli,
                    memoryBytes,
                    accelerator,
                    acceleratorsPerPod,
                    sharedMemoryBytes,
                    workers,
                    timeLimit,
                    credentialEnv,
                    dataMounts,
                    nodes);
        }

        /** The same job running another command line. */
        public Spec withCommandLine(List<String> newCommand, List<String> newArgs) {
            return new Spec(
                    publicId,
                    displayName,
                    kind,
                    image,
                    newCommand,
                    newArgs,
                    workingDir,
                    env,
                    cpuMilli,
                    memoryBytes,
                    accelerator,
                    acceleratorsPerPod,
                    sharedMemoryBytes,
                    workers,
                    timeLimit,
                    credentialEnv,
                    dataMounts,
                    targetNodes);
        }
    }

    /**
     * Whose job it is: ids for labels, the user's UID and the account's GID for the securityContext, and whether
     * the member may only read the account's space.
     */
    public record Owner(
            long accountId,
            String accountSlug,
            boolean accountReadOnly,
            long userId,
            String userSlug,
            int uid,
            int gid) {}

    /**
     * Where it runs: namespace, Volcano Queue, the shared claim with the file spaces, cleanup after the end, and the
     * bandwidth caps of its account.
     */
    public record Placement(
            String namespace, String queue, String sharedClaim, Duration ttlAfterFinished, Bandwidth bandwidth) {

        public Placement {
            bandwidth = bandwidth == null ? Bandwidth.NONE : bandwidth;
        }

        /** A placement without bandwidth caps. */
        public Placement(String namespace, String queue, String sharedClaim, Duration ttlAfterFinished) {
            this(namespace, queue, sharedClaim, ttlAfterFinished, Bandwidth.NONE);
        }
    }

    /**
     * The caps of every pod's traffic in bits per second, as Kubernetes quantities ({@code 100M}), written as the
     * {@code kubernetes.io/ingress-bandwidth} and {@code egress-bandwidth} annotations the CNI bandwidth plugin
     * enforces; null: no cap.
     */
    public record Bandwidth(String ingress, String egress) {
        public static final Bandwidth NONE = new Bandwidth(null, null);

        /** The pod annotations, or null when there is no cap. */
        Map<String, String> annotations() {
            Map<String, String> out = new java.util.TreeMap<>();
            if (ingress != null) {
                out.put("kubernetes.io/ingress-bandwidth", ingress);
            }
            if (egress != null) {
                out.put("kubernetes.io/egress-bandwidth", egress);
            }
            return out.isEmpty() ? null : out;
        }
    }
}

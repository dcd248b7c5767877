package io.crater.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * From what nodes publish (extended resources and the labels of device plugins and feature discovery) to the
 * accelerator models the catalogue lacks, and per node the resources no model covers. Pure: node descriptions and
 * the catalogue in, proposals out.
 *
 * <p>How a resource becomes a proposal:
 *
 * <ul>
 *   <li>{@code nvidia.com/gpu}: one model per {@code nvidia.com/gpu.product} value (MIG's single strategy puts the
 *       profile in that value), memory from {@code nvidia.com/gpu.memory}; on a node that also publishes HAMi's
 *       {@code nvidia.com/gpumem}, a shared-GPU (vGPU) model asking {@code nvidia.com/gpumem} per device, its memory
 *       the node's {@code gpumem} over its vGPU count;
 *   <li>{@code nvidia.com/mig-<profile>} (MIG's mixed strategy): one model per profile and product, memory from the
 *       profile's name ({@code 1g.10gb}: 10 GiB);
 *   <li>{@code huawei.com/Ascend*}: per {@code node.kubernetes.io/npu.chip.name} when nodes carry it, else the
 *       resource alone;
 *   <li>{@code hygon.com/dcu}, {@code cambricon.com/mlu} and every other extended resource: the resource alone.
 * </ul>
 *
 * HAMi's {@code nvidia.com/gpumem}, {@code nvidia.com/gpumem-percentage}, {@code nvidia.com/gpucores} and the memory
 * resource of any catalogued model are how shares are sized, not models: they are neither proposed nor uncovered.
 */
public final class CatalogueSync {

    public static final String NVIDIA_GPU = "nvidia.com/gpu";
    public static final String NVIDIA_PRODUCT = "nvidia.com/gpu.product";
    public static final String NVIDIA_MEMORY = "nvidia.com/gpu.memory";
    public static final String HAMI_MEMORY = "nvidia.com/gpumem";
    public static final String ASCEND_CHIP = "node.kubernetes.io/npu.chip.name";
    static final Set<String> AUXILIARY = Set.of(HAMI_MEMORY, "nvidia.com/gpumem-percentage", "nvidia.com/gpucores");
    private static final Pattern MIG = Pattern.compile("^nvidia\\.com/mig-(\\d+g)\\.(\\d+)gb$");

    private CatalogueSync() {}

    /** A node as the sync reads it: allocatable amounts in whole units (devices, MiB for gpumem) and its labels. */
    public record NodeFacts(String name, Map<String, Long> resources, Map<String, String> labels) {
        public NodeFacts {
            resources = Map.copyOf(resources);
            labels = Map.copyOf(labels);
        }
    }

    /** A catalogue entry as far as mapping goes (a retired one still covers its nodes). */
    public record Entry(String key, String resource, String labelKey, String labelValue, String memoryResource) {

        /** This entry describes the node's {@code resource}: same resource and, if it has one, its label. */
        boolean covers(String resource, Map<String, String> labels) {
            return this.resource.equals(resource) && (labelKey == null || labelValue.equals(labels.get(labelKey)));
        }
    }

    /** A model the nodes publish and the catalogue lacks: a suggested entry, the nodes and their device count. */
    public record Proposal(
            String key,
            String resource,
            String labelKey,
            String labelValue,
            String memoryResource,
            Long memoryMiB,
            String displayName,
            String vendor,
            List<String> nodes,
            long count) {}

    /** An extended resource of a node that no catalogue model covers. */
    public record Uncovered(String resource, long count) {}

    /** The proposals and, per node name, what is uncovered. */
    public record Result(List<Proposal> proposals, Map<String, List<Uncovered>> uncovered) {}

    /** Proposals (ordered by key) and uncovered resources of the nodes against the catalogue. */
    public static Result of(List<NodeFacts> nodes, List<Entry> catalogue) {
        Set<String> auxiliary = new TreeSet<>(AUXILIARY);
        catalogue.stream().map(Entry::memoryResource).filter(Objects::nonNull).forEach(auxiliary::add);
        Map<List<String>, Draft> drafts = new LinkedHashMap<>();
        Map<String, List<Uncovered>> uncovered = new TreeMap<>();
        for (NodeFacts node : nodes) {
            for (Map.Entry<String, Long> r : new TreeMap<>(node.resources()).entrySet()) {
                String resource = r.getKey();
                if (!isExtended(resource) || auxiliary.contains(resource) || r.getValue() <= 0) {
                    continue;
                }
                if (catalogue.stream().noneMatch(e -> e.covers(resource, node.labels()))) {
                    uncovered
                            .computeIfAbsent(node.name(), n -> new ArrayList<>())
                            .add(new Uncovered(resource, r.getValue()));
                }
                Draft d = draft(node, resource, r.getValue()).on(node.name(), r.getValue());
                boolean known = catalogue.stream()
                        .anyMatch(e -> e.covers(resource, node.labels())
                                && Objects.equals(e.memoryResource(), d.memoryResource()));
                if (!known) {
                    drafts.merge(d.identity(), d, Draft::merge);
                }
            }
        }
        return new Result(proposals(drafts.values(), catalogue), uncovered);
    }

    /** HAMi's resources that size a share of a card ({@code nvidia.com/gpumem}, ...): never a model of their own. */
    public static boolean isSharing(String resource) {
        return AUXILIARY.contains(resource);
    }

    /** A resource name a device plugin publishes: {@code domain/name}, not one of Kubernetes' own. */
    public static boolean isExtended(String resource) {
        return resource.contains("/")
                && !resource.startsWith("hugepages-")
                && !resource.startsWith("kubernetes.io/")
                && !resource.contains(".kubernetes.io/")
                && !resource.startsWith("requests.");
    }

    /** What one node suggests for one of its resources, before it is merged with the other nodes'. */
    private record Draft(
            String resource,
            String labelKey,
            String labelValue,
            String memoryResource,
            Long memoryMiB,
            String baseKey,
            String displayName,
            String vendor,
            Set<String> nodes,
            long[] count) {

        static Draft of(
                String resource,
                String label,
                String value,
                String memory,
                Long mib,
                String key,
                String name,
                String vendor) {
            return new Draft(
                    resource,
                    value == null ? null : label,
                    value,
                    memory,
                    mib,
                    key,
                    name,
                    vendor,
                    new TreeSet<>(),
                    new long[1]);
        }

        Draft on(String node, long devices) {
            nodes.add(node);
            count[0] += devices;
            return this;
        }

        List<String> identity() {
            return java.util.Arrays.asList(resource, labelKey, labelValue, memoryResource);
        }

        Draft merge(Draft other) {
            nodes.addAll(other.nodes);
            count[0] += other.count[0];
            return this;
        }
    }

    private static Draft draft(NodeFacts node, String resource, long count) {
        Map<String, String> labels = node.labels();
        String product = labels.get(NVIDIA_PRODUCT);
        String productName = product == null ? "NVIDIA" : product.replace('-', ' ');
        Matcher mig = MIG.matcher(resource);
        if (resource.equals(NVIDIA_GPU)) {
            return nvidiaDraft(node, resource, count, product);
        }
        if (mig.matches()) {
            String profile = mig.group(1) + "." + mig.group(2) + "gb";
            String base = product == null ? "nvidia" : slug(product);
            return Draft.of(
                    resource,
                    NVIDIA_PRODUCT,
                    product,
                    null,
                    Long.parseLong(mig.group(2)) * 1024,
                    base + "-mig-" + slug(profile),
                    productName + " MIG " + profile,
                    "NVIDIA");
        }
        if (resource.startsWith("huawei.com/Ascend")) {
            String chip = labels.get(ASCEND_CHIP);
            String series = resource.substring("huawei.com/".length());
            return Draft.of(
                    resource,
                    ASCEND_CHIP,
                    chip,
                    null,
                    null,
                    chip == null ? "huawei-" + slug(series) : "ascend-" + slug(chip),
                    chip == null ? series : "Ascend " + chip,
                    "Huawei");
        }
        return Draft.of(
                resource,
                null,
                null,
                null,
                null,
                slug(resource.replace(".com/", "-")),
                displayOf(resource),
                vendorOf(resource));
    }

    /** A whole card per product label, or on a HAMi node a vGPU sized by the node's gpumem per vGPU. */
    private static Draft nvidiaDraft(NodeFacts node, String resource, long count, String product) {
        String key = product == null ? "nvidia-gpu" : slug(product);
        String name = product == null ? "NVIDIA GPU" : product.replace('-', ' ');
        Long hami = node.resources().get(HAMI_MEMORY);
        if (hami != null && hami > 0) {
            return Draft.of(
                    resource,
                    NVIDIA_PRODUCT,
                    product,
                    HAMI_MEMORY,
                    hami / count,
                    key + "-vgpu",
                    name + " vGPU",
                    "NVIDIA");
        }
        Long memory = number(node.labels().get(NVIDIA_MEMORY));
        return Draft.of(resource, NVIDIA_PRODUCT, product, null, memory, key, name, "NVIDIA");
    }

    private static List<Proposal> proposals(java.util.Collection<Draft> drafts, List<Entry> catalogue) {
        Set<String> taken = new TreeSet<>();
        catalogue.forEach(e -> taken.add(e.key()));
        List<Proposal> out = new ArrayList<>();
        List<Draft> ordered = new ArrayList<>(drafts);
        ordered.sort(java.util.Comparator.comparing(Draft::baseKey).thenComparing(Draft::resource));
        for (Draft d : ordered) {
            String key = d.baseKey();
            for (int n = 2; taken.contains(key); n++) {
                key = d.baseKey() + "-" + n;
            }
            taken.add(key);
            out.add(new Proposal(
                    key,
                    d.resource(),
                    d.labelKey(),
                    d.labelValue(),
                    d.memoryResource(),
                    d.memoryMiB(),
                    d.displayName(),
                    d.vendor(),
                    List.copyOf(d.nodes()),
                    d.count()[0]));
        }
        return out;
    }

    private static String displayOf(String resource) {
        return switch (resource) {
            case "hygon.com/dcu" -> "Hygon DCU";
            case "cambricon.com/mlu" -> "Cambricon MLU";
            default -> resource;
        };
    }

    private static String vendorOf(String resource) {
        String domain = resource.substring(0, resource.indexOf('/'));
        String first = domain.split("\\.")[0];
        return switch (first) {
            case "amd" -> "AMD";
            case "nvidia" -> "NVIDIA";
            default -> first.isEmpty() ? domain : Character.toUpperCase(first.charAt(0)) + first.substring(1);
        };
    }

    /** A catalogue key from a name: lowercase letters, digits and single dashes, at most 63 characters. */
    static String slug(String name) {
        String s = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (s.length() > 56) {
            s = s.substring(0, 56).replaceAll("-+$", "");
        }
        return s.isEmpty() ? "model" : s;
    }

    private static Long number(String value) {
        if (value == null || !value.matches("[0-9]{1,9}")) {
            return null;
        }
        long n = Long.parseLong(value);
        return n > 0 ? n : null;
    }
}

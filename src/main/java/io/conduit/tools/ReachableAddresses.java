package io.conduit.tools;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Which addresses a tool may connect to: public ones, and of the others (loopback, link-local and with it the cloud
 * metadata address 169.254.169.254, private, unique-local, carrier-grade NAT, unspecified, multicast) only those an
 * operator listed ({@code conduit.tools.private-addresses}, addresses or CIDR blocks). Checked on the addresses a
 * host name resolves to, not on the name: an allowed name whose DNS answer points inside the network (a rebinding)
 * is refused. The JDK's HTTP client then resolves the name again from the JVM's address cache, which holds the
 * answer checked here for {@code networkaddress.cache.ttl} (30 s by default).
 */
public final class ReachableAddresses {

    /** Every address allowed: for tools whose every address an operator configured and none a model chooses. */
    public static final ReachableAddresses ANY = new ReachableAddresses(List.of(new Cidr(new byte[4], 0), new Cidr(new byte[16], 0)));

    private final List<Cidr> listed;

    private ReachableAddresses(List<Cidr> listed) {
        this.listed = listed;
    }

    /** Public addresses and those in {@code listed} (addresses or CIDR blocks; a start-up error if one is malformed). */
    public static ReachableAddresses publicAnd(Collection<String> listed) {
        return new ReachableAddresses(listed.stream().map(Cidr::parse).toList());
    }

    /**
     * Resolves {@code host} (blocking: call it off the event loop) and returns its addresses, or throws
     * {@link IllegalArgumentException} naming the first that may not be reached.
     */
    public List<InetAddress> check(String host) throws UnknownHostException {
        List<InetAddress> all = List.of(InetAddress.getAllByName(host));
        for (InetAddress a : all) {
            if (!isPublic(a) && listed.stream().noneMatch(c -> c.contains(a))) {
                throw new IllegalArgumentException("host " + host + " resolves to " + a.getHostAddress()
                        + ", a non-public address (list it in conduit.tools.private-addresses to allow it)");
            }
        }
        return all;
    }

    static boolean isPublic(InetAddress a) {
        if (a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (b.length == 4) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 && !(first == 100 && second >= 64 && second < 128) // 0/8; carrier-grade NAT 100.64/10
                    && !(first == 192 && second == 0 && b[2] == 0) // 192.0.0.0/24 (IETF protocol assignments)
                    && !(first == 198 && (second == 18 || second == 19)); // 198.18/15 (benchmarking)
        }
        return (b[0] & 0xfe) != 0xfc; // fc00::/7, unique local (the AWS metadata service's fd00:ec2::254 among them)
    }

    /** An address block. */
    private record Cidr(byte[] network, int bits) {

        static Cidr parse(String text) {
            String t = text.strip().toLowerCase(Locale.ROOT);
            int slash = t.indexOf('/');
            if (!isLiteral(t, slash)) {
                throw new IllegalStateException("conduit.tools.private-addresses: " + text + " is not an address or a CIDR block");
            }
            try {
                // a literal only: getByName on a literal does no DNS lookup
                byte[] address = InetAddress.getByName(slash < 0 ? t : t.substring(0, slash)).getAddress();
                int bits = slash < 0 ? address.length * 8 : Integer.parseInt(t.substring(slash + 1));
                if (bits < 0 || bits > address.length * 8) {
                    throw new IllegalArgumentException();
                }
                return new Cidr(address, bits);
            } catch (UnknownHostException | IllegalArgumentException e) {
                throw new IllegalStateException("conduit.tools.private-addresses: " + text + " is not an address or a CIDR block");
            }
        }

        private static boolean isLiteral(String t, int slash) {
            String a = slash < 0 ? t : t.substring(0, slash);
            return a.contains(":") || a.matches("[0-9.]+");
        }

        boolean contains(InetAddress a) {
            byte[] b = a.getAddress();
            if (b.length != network.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                if ((b[i / 8] & mask) != (network[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}

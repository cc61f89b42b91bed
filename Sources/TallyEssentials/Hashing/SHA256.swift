/// Incremental SHA-256 (FIPS 180-4).
///
/// All state lives inline (eight words, one 64-byte block buffer, counters), so
/// hashing allocates nothing except the returned digest. Full blocks are
/// compressed straight from the caller's memory; only a trailing partial block
/// is copied into `buffer`.
///
/// Invariants: `0 <= buffered < 64`; the first `buffered` bytes of `buffer` are
/// the pending partial block; `length` counts every byte absorbed so far.
public struct SHA256: Sendable {
    private typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    private var state: Words = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
        0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var buffer: Block = (0, 0, 0, 0, 0, 0, 0, 0)
    private var buffered = 0
    private var length: UInt64 = 0
    private var finished = false

    /// A hasher with the standard initial hash value and no input.
    public init() {}

    /// Absorbs `bytes`. Precondition: `finalize()` has not been called.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "SHA256.update called after finalize()")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var input = base
        var remaining = bytes.count
        length &+= UInt64(remaining)

        if buffered > 0 {
            let take = min(64 - buffered, remaining)
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress!.advanced(by: buffered).copyMemory(from: input, byteCount: take)
            }
            buffered += take
            input += take
            remaining -= take
            guard buffered == 64 else { return }
            withUnsafeBytes(of: buffer) { block in
                Self.compress(&state, blocks: block.baseAddress!, count: 1)
            }
            buffered = 0
        }

        let fullBlocks = remaining / 64
        if fullBlocks > 0 {
            Self.compress(&state, blocks: input, count: fullBlocks)
            input += fullBlocks * 64
            remaining -= fullBlocks * 64
        }

        if remaining > 0 {
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress!.copyMemory(from: input, byteCount: remaining)
            }
            buffered = remaining
        }
    }

    /// Absorbs the UTF-8 encoding of `string`.
    public mutating func update(_ string: String) {
        var string = string
        string.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Absorbs `bytes`.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Pads the message and returns the 32-byte digest.
    ///
    /// Calling it again returns the same digest; calling `update` afterwards is a
    /// precondition failure.
    public mutating func finalize() -> [UInt8] {
        let words = finish()
        return [UInt8](unsafeUninitializedCapacity: 32) { out, initialized in
            Self.store(words, into: UnsafeMutableRawPointer(out.baseAddress!))
            initialized = 32
        }
    }

    /// The SHA-256 digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 of the UTF-8 encoding of `string`, as 64 lowercase hex digits.
    public static func hexDigest(_ string: String) -> String {
        var hasher = SHA256()
        hasher.update(string)
        let words = hasher.finish()
        return withUnsafeTemporaryAllocation(byteCount: 32, alignment: 4) { raw in
            store(words, into: raw.baseAddress!)
            return hex(UnsafeRawBufferPointer(raw))
        }
    }

    /// `digest` as lowercase hex, two digits per byte.
    public static func hex(_ digest: [UInt8]) -> String {
        digest.withUnsafeBytes { hex($0) }
    }

    private static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            let digits: StaticString = "0123456789abcdef"
            let table = digits.utf8Start
            for (i, byte) in bytes.enumerated() {
                out[2 * i] = table[Int(byte >> 4)]
                out[2 * i + 1] = table[Int(byte & 0x0f)]
            }
            return bytes.count * 2
        }
    }

    /// Applies the final padding (0x80, zeros, 64-bit big-endian bit length) once.
    private mutating func finish() -> Words {
        if finished { return state }
        finished = true
        let bitLength = length &* 8
        let used = buffered
        withUnsafeMutableBytes(of: &buffer) { block in
            let base = block.baseAddress!
            base.storeBytes(of: 0x80, toByteOffset: used, as: UInt8.self)
            if used + 1 > 56 {
                (base + used + 1).initializeMemory(as: UInt8.self, repeating: 0, count: 63 - used)
                Self.compress(&state, blocks: UnsafeRawPointer(base), count: 1)
                base.initializeMemory(as: UInt8.self, repeating: 0, count: 56)
            } else {
                (base + used + 1).initializeMemory(as: UInt8.self, repeating: 0, count: 55 - used)
            }
            base.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
            Self.compress(&state, blocks: UnsafeRawPointer(base), count: 1)
        }
        buffered = 0
        return state
    }

    private static func store(_ words: Words, into out: UnsafeMutableRawPointer) {
        out.storeBytes(of: words.0.bigEndian, toByteOffset: 0, as: UInt32.self)
        out.storeBytes(of: words.1.bigEndian, toByteOffset: 4, as: UInt32.self)
        out.storeBytes(of: words.2.bigEndian, toByteOffset: 8, as: UInt32.self)
        out.storeBytes(of: words.3.bigEndian, toByteOffset: 12, as: UInt32.self)
        out.storeBytes(of: words.4.bigEndian, toByteOffset: 16, as: UInt32.self)
        out.storeBytes(of: words.5.bigEndian, toByteOffset: 20, as: UInt32.self)
        out.storeBytes(of: words.6.bigEndian, toByteOffset: 24, as: UInt32.self)
        out.storeBytes(of: words.7.bigEndian, toByteOffset: 28, as: UInt32.self)
    }

    /// Round constants: first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x &>> n) | (x &<< (32 &- n))
    }

    /// One round in place: the caller rotates the roles of the eight variables
    /// instead of shifting values, so an 8-round group needs no register moves.
    /// Σ1(e) = ROTR6(e ^ ROTR5(e ^ ROTR14(e))) and Σ0(a) = ROTR2(a ^ ROTR11(a ^ ROTR9(a)))
    /// are the FIPS 180-4 definitions regrouped to need fewer temporaries.
    /// Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)); `bc` carries b ^ c in and a ^ b out,
    /// which is exactly the next round's b ^ c.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
    ) {
        let sigma1 = rotr(rotr(rotr(e, 14) ^ e, 5) ^ e, 6)
        let t1 = h &+ sigma1 &+ (g ^ (e & (f ^ g))) &+ kw
        d &+= t1
        let sigma0 = rotr(rotr(rotr(a, 9) ^ a, 11) ^ a, 2)
        let ab = a ^ b
        h = t1 &+ sigma0 &+ (b ^ (ab & bc))
        bc = ab
    }

    /// Runs the compression function over `count` consecutive 64-byte blocks.
    ///
    /// The 64-word message schedule lives in a stack temporary reused for every block;
    /// after expansion each word has its round constant pre-added (W[t] + K[t]).
    private static func compress(_ state: inout Words, blocks: UnsafeRawPointer, count: Int) {
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var (h0, h1, h2, h3, h4, h5, h6, h7) = state
                var block = blocks
                for _ in 0..<count {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t &- 15]
                        let y = w[t &- 2]
                        let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
                        let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
                        w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                    }
                    for t in 0..<64 { w[t] &+= k[t] }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    var bc = b ^ c
                    var t = 0
                    while t < 64 {
                        round(a, b, c, &d, e, f, g, &h, w[t], &bc)
                        round(h, a, b, &c, d, e, f, &g, w[t &+ 1], &bc)
                        round(g, h, a, &b, c, d, e, &f, w[t &+ 2], &bc)
                        round(f, g, h, &a, b, c, d, &e, w[t &+ 3], &bc)
                        round(e, f, g, &h, a, b, c, &d, w[t &+ 4], &bc)
                        round(d, e, f, &g, h, a, b, &c, w[t &+ 5], &bc)
                        round(c, d, e, &f, g, h, a, &b, w[t &+ 6], &bc)
                        round(b, c, d, &e, f, g, h, &a, w[t &+ 7], &bc)
                        t &+= 8
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    block += 64
                }
                state = (h0, h1, h2, h3, h4, h5, h6, h7)
            }
        }
    }
}

pragma circom 2.1.0;

// The single-teleport statement of both zERC20 versions, written from the published facts: a burn address
// derived from the recipient hash R and a secret (with the version's domain and proof of work) received a
// transfer that is a leaf of the proved transfer tree, and the withdrawal is its value less a private delta.

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/bitify.circom";

// The burn address of (R, secret): h = P3("burn", R, secret) with 16 zero bits from bit 160 (v2), or
// h = P2(R, secret) with 12 (v1); the address is h mod 2^160. The bits are the canonical ones
// (Num2Bits_strict), so no alias of h below 2^254 can fake the proof of work.
template BurnAddress(version) {
    signal input recipientHash;
    signal input secret;
    signal output address;

    var powBits = version == 2 ? 16 : 12;
    var hashInputs = version == 2 ? 3 : 2;
    component hash = Poseidon(hashInputs);
    if (version == 2) {
        // "burn" read little-endian.
        hash.inputs[0] <== 1852994914;
        hash.inputs[1] <== recipientHash;
        hash.inputs[2] <== secret;
    } else {
        hash.inputs[0] <== recipientHash;
        hash.inputs[1] <== secret;
    }
    component bits = Num2Bits_strict();
    bits.in <== hash.out;
    for (var i = 160; i < 160 + powBits; i++) {
        bits.out[i] === 0;
    }
    var low = 0;
    var weight = 1;
    for (var i = 0; i < 160; i++) {
        low += bits.out[i] * weight;
        weight += weight;
    }
    address <== low;
}

// The transfer leaf: P3(from, to, value) in v2, P2(to, value) in v1.
template TransferLeaf(version) {
    signal input from;
    signal input to;
    signal input value;
    signal output leaf;

    if (version == 2) {
        component hash = Poseidon(3);
        hash.inputs[0] <== from;
        hash.inputs[1] <== to;
        hash.inputs[2] <== value;
        leaf <== hash.out;
    } else {
        component hash = Poseidon(2);
        hash.inputs[0] <== to;
        hash.inputs[1] <== value;
        leaf <== hash.out;
    }
}

// The root above `leaf` at position `index` (bit i set: the node is a right child at level i), nodes P2(left, right).
template MerkleRoot(height) {
    signal input leaf;
    signal input index;
    signal input siblings[height];
    signal output root;

    component position = Num2Bits(height);
    position.in <== index;
    component nodes[height];
    signal path[height + 1];
    signal left[height];
    path[0] <== leaf;
    for (var i = 0; i < height; i++) {
        left[i] <== path[i] + position.out[i] * (siblings[i] - path[i]);
        nodes[i] = Poseidon(2);
        nodes[i].inputs[0] <== left[i];
        nodes[i].inputs[1] <== path[i] + siblings[i] - left[i];
        path[i + 1] <== nodes[i].out;
    }
    root <== path[height];
}

// Public [transferRoot, recipientHash, withdrawValue], in the order the verifier's `pub` words take them.
// withdrawValue = value - delta with both below 2^248, so it can never wrap around the field.
template SingleTeleport(version, height) {
    signal input transferRoot;
    signal input recipientHash;
    signal input withdrawValue;
    signal input secret;
    signal input from;
    signal input value;
    signal input delta;
    signal input leafIndex;
    signal input siblings[height];

    component burn = BurnAddress(version);
    burn.recipientHash <== recipientHash;
    burn.secret <== secret;

    component leaf = TransferLeaf(version);
    leaf.from <== from;
    leaf.to <== burn.address;
    leaf.value <== value;

    component tree = MerkleRoot(height);
    tree.leaf <== leaf.leaf;
    tree.index <== leafIndex;
    for (var i = 0; i < height; i++) {
        tree.siblings[i] <== siblings[i];
    }
    tree.root === transferRoot;

    component deltaRange = Num2Bits(248);
    deltaRange.in <== delta;
    withdrawValue === value - delta;
    component withdrawRange = Num2Bits(248);
    withdrawRange.in <== withdrawValue;
}

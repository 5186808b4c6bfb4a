// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title uvtrace integrity anchor
/// @notice Stores the Merkle root of each blockchain data block of sterilization records
///         (hashing_version 1, docs/integrity.md). A block id is anchored once and never changes.
contract Anchor {
    address public immutable owner;
    mapping(uint256 => bytes32) public roots;

    event Anchored(uint256 indexed blockId, bytes32 root);

    error NotOwner();
    error AlreadyAnchored(uint256 blockId);
    error EmptyRoot();

    constructor() {
        owner = msg.sender;
    }

    function anchor(uint256 blockId, bytes32 root) external {
        if (msg.sender != owner) revert NotOwner();
        if (root == bytes32(0)) revert EmptyRoot();
        if (roots[blockId] != bytes32(0)) revert AlreadyAnchored(blockId);
        roots[blockId] = root;
        emit Anchored(blockId, root);
    }
}

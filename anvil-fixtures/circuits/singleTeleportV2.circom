pragma circom 2.1.0;
include "singleTeleport.circom";
component main {public [transferRoot, recipientHash, withdrawValue]} = SingleTeleport(2, 40);

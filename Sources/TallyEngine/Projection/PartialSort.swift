/// The first `k` elements of a strict order without sorting everything.
enum PartialSort {
    /// The `k` smallest elements of `elements` under `less`, in order; equal to `sorted(by: less).prefix(k)`
    /// when `less` is a strict total order.
    /// - Complexity: O(n log k), with one comparison per element once the heap is full.
    static func smallest<T>(_ k: Int, of elements: [T], by less: @escaping (T, T) -> Bool) -> [T] {
        guard elements.count > k else { return k > 0 ? elements.sorted(by: less) : [] }
        var heap = Smallest(k, by: less)
        for element in elements { heap.offer(element) }
        return heap.sorted()
    }

    /// The `k` smallest of the elements offered one by one, without keeping the others:
    /// a page of a large list costs O(k) memory, not a copy of every match.
    struct Smallest<T> {
        let k: Int
        let less: (T, T) -> Bool
        /// A max-heap of the k smallest seen so far: the root is the largest of them.
        private var heap: [T] = []

        init(_ k: Int, by less: @escaping (T, T) -> Bool) {
            self.k = k
            self.less = less
            heap.reserveCapacity(max(k, 0))
        }

        /// Keeps `element` when it is among the k smallest so far.
        /// - Complexity: O(log k), one comparison once the heap is full and the element is not smaller than its root.
        mutating func offer(_ element: T) {
            guard k > 0 else { return }
            if heap.count < k {
                heap.append(element)
                PartialSort.siftUp(&heap, from: heap.count - 1, less)
            } else if less(element, heap[0]) {
                heap[0] = element
                PartialSort.siftDown(&heap, from: 0, less)
            }
        }

        /// The kept elements in order.
        func sorted() -> [T] { heap.sorted(by: less) }
    }

    fileprivate static func siftUp<T>(_ heap: inout [T], from start: Int, _ less: (T, T) -> Bool) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    fileprivate static func siftDown<T>(_ heap: inout [T], from start: Int, _ less: (T, T) -> Bool) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            var largest = left
            if right < heap.count, less(heap[left], heap[right]) { largest = right }
            guard less(heap[parent], heap[largest]) else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
